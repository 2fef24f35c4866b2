package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.live.FollowedSpace;
import dev.feedstore.server.internal.live.ManualExecutor;
import dev.feedstore.server.internal.spaces.SharedPages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event streams of one space, each on a connection of its own, share their deliveries: commits
 * made while the connections are busy wake no stream and go out, when a connection is free again, as
 * one write per stream of the same bytes encoded once; streams that fell behind the recent blocks
 * are sent the same pages, read once and encoded once. The followers run on a manual executor and
 * each connection completes its writes when the test says, so nothing depends on timing.
 */
class SseSharedDeliveryTest {
  private static final int STREAMS = 5;
  private static final Pattern ID = Pattern.compile("^id: (\\d+)$", Pattern.MULTILINE);

  @TempDir Path dir;
  FollowedSpace space;
  final ManualExecutor drains = new ManualExecutor();
  final List<RecordingOutput> connections = new ArrayList<>();
  FollowedSpace.Follower first;

  /** Opens the streams; each writes its opening and caught-up events, which stay in flight. */
  @BeforeEach
  void open() {
    space = new FollowedSpace(dir, FollowedSpace.SMALL_BATCHES);
    for (int i = 0; i < STREAMS; i++) {
      RecordingOutput connection = new RecordingOutput();
      connections.add(connection);
      FollowedSpace.Follower follower = space.follower(Scope.WHOLE_SPACE, 0,
          new SseSink(connection, () -> { }, Optional.empty()), drains);
      follower.start();
      first = first == null ? follower : first;
    }
    drains.runAll();
    connections.forEach(connection -> assertEquals(1, connection.inFlight.size(), "the caught-up event in flight"));
  }

  @AfterEach
  void close() {
    space.close();
  }

  @Test
  void commitsMadeWhileTheConnectionsAreBusyGoOutAsOneWritePerStreamOfBytesEncodedOnce() {
    for (int commit = 0; commit < 3; commit++) {
      space.append(1);
    }
    space.committedAndSignalled();
    assertEquals(0, drains.queued(), "commits woke streams whose connections were busy");

    connections.forEach(RecordingOutput::complete);
    assertEquals(STREAMS, drains.queued(), "each write's completion woke its stream");
    drains.runAll();

    byte[] shared = connections.get(0).arrays.get(1);
    for (RecordingOutput connection : connections) {
      assertEquals(2, connection.writes.size(), "the three commits in one write");
      assertEquals(List.of(1L, 2L, 3L), ids(connection.writes.get(1)));
      assertTrue(shared == connection.arrays.get(1), "every stream writes the same bytes");
    }
  }

  @Test
  void streamsBehindTheRecentBlocksAreSentTheSamePagesReadAndEncodedOnceTwoCommitsAWrite() {
    for (int commit = 0; commit < 10; commit++) {
      space.append(2);
    }
    space.committedAndSignalled();
    assertEquals(0, drains.queued(), "commits woke streams whose connections were busy");

    RecordingOutput.takeEverything(connections);
    drains.runAll();

    for (RecordingOutput connection : connections) {
      assertEquals(6, connection.writes.size(), "the opening, then 20 blocks in batches of 4: two commits a write");
      List<Long> ids = new ArrayList<>();
      for (int write = 1; write < connection.writes.size(); write++) {
        assertTrue(connections.get(0).arrays.get(write) == connection.arrays.get(write),
            "write " + write + " is the same bytes on every stream");
        ids.addAll(ids(connection.writes.get(write)));
      }
      assertEquals(LongStream.rangeClosed(1, 20).boxed().toList(), ids, "every block once, in order");
    }
    SharedPages.Shared page = first.space().tail().pages().page(Scope.WHOLE_SPACE, 0, 4,
        FollowedSpace.SMALL_BATCHES.get(WATCH_BATCH_BYTES), () -> {
          throw new AssertionError("the first page behind the recent blocks was not kept for the streams");
        });
    assertTrue(SseEvent.page(page.page(), page.encodings()) == connections.get(0).arrays.get(1),
        "the streams behind were sent the page's own encoding");
  }

  /** The ids of the block events in {@code events}. */
  private static List<Long> ids(String events) {
    List<Long> ids = new ArrayList<>();
    Matcher id = ID.matcher(events);
    while (id.find()) {
      ids.add(Long.parseLong(id.group(1)));
    }
    return ids;
  }
}
