package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams share the watch executor's runners in turns: a stream far behind sends a few batches and
 * then queues its drain again behind the streams that waited meanwhile, instead of holding its
 * runner until it has caught up; a signal while it waits for its next turn queues no second drain,
 * and what is committed meanwhile is sent in order, once.
 */
class LiveFollowerTurnsTest {
  @TempDir Path dir;
  FollowedSpace space;

  @AfterEach
  void close() {
    space.close();
  }

  @Test
  void aStreamFarBehindHandsItsRunnerToAStreamQueuedBehindItBeforeItHasCaughtUp() {
    space = new FollowedSpace(dir, ServerSettings.newBuilder().set(WATCH_BATCH_BLOCKS, 10).build());
    space.append(500); // fifty batches behind
    ManualExecutor runner = new ManualExecutor(); // one runner, drains in the order they were scheduled
    RecordingSink live = new RecordingSink();
    FollowedSpace.Follower atTail = space.follower(500, live, runner);
    atTail.follower().start();
    runner.runAll();
    assertEquals(List.of(), live.positions, "at the tail: nothing to send yet");

    RecordingSink behind = new RecordingSink();
    FollowedSpace.Follower farBehind = space.follower(0, behind, runner);
    farBehind.follower().start();
    space.append(1); // the commit signals the stream at the tail, whose drain queues behind the other's
    Await.until("the stream at the tail is queued behind the one far behind", () -> runner.queued() == 2);

    runner.runNext();
    assertTrue(behind.positions.size() < 500, "one turn sent " + behind.positions.size() + " blocks");
    assertEquals(2, runner.queued(), "the stream far behind queued its next turn behind the other");
    farBehind.follower().signal(); // as a commit during the wait would: its turn is queued already
    assertEquals(2, runner.queued(), "a second drain of one stream");
    int sentBefore = behind.positions.size();

    runner.runNext();
    assertEquals(List.of(501L), live.positions, "the stream at the tail sent in the next turn");
    assertEquals(sentBefore, behind.positions.size());

    space.append(1); // committed while the stream far behind is still catching up
    Await.until("every turn ran", () -> {
      runner.runAll();
      return live.positions.size() == 2 && behind.positions.size() == 502;
    });
    assertEquals(LongStream.rangeClosed(1, 502).boxed().toList(), behind.positions, "in order, each once");
    assertEquals(List.of(501L, 502L), live.positions);
    farBehind.follower().end(new IllegalStateException("test over"));
    atTail.follower().end(new IllegalStateException("test over"));
    runner.runAll();
  }
}
