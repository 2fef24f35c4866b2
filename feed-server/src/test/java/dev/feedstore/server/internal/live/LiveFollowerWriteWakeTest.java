package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.server.internal.http.RecordingOutput;
import dev.feedstore.server.internal.http.SseWriter;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import dev.feedstore.server.settings.ServerSettings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event stream's follower, writing through {@link SseWriter}: a commit does not wake a stream
 * whose connection is still taking its last write; that write's completion (Jetty's callback) does,
 * and the commits made meanwhile go out in one write. A write the connection took at once wakes
 * nothing more.
 */
class LiveFollowerWriteWakeTest {
  @TempDir Path dir;
  FollowedSpace space;

  /** Writes each event as a line of text naming its positions. */
  record WriterSink(SseWriter writer) implements LiveSink {
    @Override
    public void start(Runnable onReady, Runnable onGone) {
      writer.start(onReady, onGone);
    }

    @Override
    public boolean isReady() {
      return writer.isReady();
    }

    @Override
    public void history(Head head, Page page) {
      write("history " + page.blocks().stream().map(b -> String.valueOf(b.position().value()))
          .collect(Collectors.joining(",")));
    }

    @Override
    public void live(Head head, List<TailEntry> entries) {
      write("live " + entries.stream().map(e -> String.valueOf(e.position())).collect(Collectors.joining(",")));
    }

    @Override
    public void caughtUp(Head head) {
      write("caught up");
    }

    @Override
    public void heartbeat(Head head) {
      write("heartbeat");
    }

    @Override
    public void end(RuntimeException reason) {
      writer.end(ByteBuffer.wrap("end".getBytes(StandardCharsets.UTF_8)));
    }

    private void write(String text) {
      writer.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @AfterEach
  void close() {
    space.close();
  }

  @Test
  void commitsWhileAWriteIsInFlightWakeNothingAndGoOutInOneWriteWhenItCompletes() {
    space = new FollowedSpace(dir, ServerSettings.DEFAULTS);
    space.append(1);
    ManualExecutor runner = new ManualExecutor();
    RecordingOutput output = new RecordingOutput();
    FollowedSpace.Follower stream = space.follower(0, new WriterSink(new SseWriter(output)), runner);
    stream.follower().start();
    runner.runAll();
    assertEquals(List.of("history 1"), output.writes, "one write, still in flight");

    space.append(1);
    space.append(1);
    space.append(1);
    space.committedAndSignalled();
    assertEquals(0, runner.queued(), "three commits woke a stream whose connection was busy");

    output.complete();
    assertEquals(1, runner.queued(), "the write's completion woke it");
    runner.runAll();
    assertEquals(List.of("history 1", "live 2,3,4"), output.writes, "the three commits in one write");

    output.completeAtOnce();
    output.complete();
    runner.runAll();
    assertEquals("caught up", output.writes.get(2));
    space.append(1);
    space.committedAndSignalled();
    assertEquals(1, runner.queued(), "a commit wakes a stream whose connection takes bytes");
    runner.runAll();
    assertEquals(List.of("history 1", "live 2,3,4", "caught up", "live 5"), output.writes);
    assertEquals(0, runner.queued(), "a write taken at once wakes nothing more");

    stream.follower().end(new IllegalStateException("test over"));
    runner.runAll();
    assertEquals("end", output.writes.get(output.writes.size() - 1));
  }
}
