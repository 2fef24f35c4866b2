package dev.feedstore.server.internal.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.http.RecordingOutput;
import dev.feedstore.server.internal.live.FollowedSpace;
import dev.feedstore.server.internal.live.ManualExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live readers of one Durable Stream, each on a connection of its own, share their deliveries
 * as the event streams of a space do: commits made while the connections are busy wake no reader
 * and go out, when a connection is free again, as one write per reader of the same data and control
 * events encoded once; readers that fell behind the recent blocks are sent the same parts of the
 * same pages, read once and encoded once, though the stream's blocks lie between other feeds' in the
 * space. The followers run on a manual executor and each connection completes its writes when the
 * test says, so nothing depends on timing.
 */
class StreamSharedDeliveryTest {
  private static final int READERS = 5;
  private static final StreamContent TEXT = new StreamContent("text/plain");
  private static final Pattern DATA = Pattern.compile("^event: data\\ndata:(.*)$", Pattern.MULTILINE);
  private static final Pattern NEXT = Pattern.compile("\"streamNextOffset\":\"([0-9_]+)\"");

  @TempDir Path dir;
  FollowedSpace space;
  final ManualExecutor drains = new ManualExecutor();
  final List<RecordingOutput> connections = new ArrayList<>();

  /**
   * Opens the readers of the stream's feed and writes its first block (position 1), which each
   * reader sends at once and which stays in flight.
   */
  @BeforeEach
  void open() {
    space = new FollowedSpace(dir, FollowedSpace.SMALL_BATCHES);
    for (int i = 0; i < READERS; i++) {
      RecordingOutput connection = new RecordingOutput();
      connections.add(connection);
      space.follower(Scope.feeds(Set.of(space.feed())), 0, new StreamSseSink(connection, TEXT, "", 0, () -> "7",
          after -> List.of()), drains).start();
    }
    drains.runAll();
    space.append(1);
    space.committedAndSignalled();
    drains.runAll();
    for (RecordingOutput connection : connections) {
      assertEquals(List.of("a/0"), data(connection.writes.get(0)));
      assertEquals(1, connection.inFlight.size(), "the first block's events in flight");
    }
  }

  @AfterEach
  void close() {
    space.close();
  }

  @Test
  void commitsMadeWhileTheConnectionsAreBusyGoOutAsOneWritePerReaderOfEventsEncodedOnce() {
    space.appendElsewhere(1); // position 2
    space.append(1); // 3
    space.appendElsewhere(1); // 4
    space.append(1); // 5
    space.committedAndSignalled();
    assertEquals(0, drains.queued(), "commits woke readers whose connections were busy");

    connections.forEach(RecordingOutput::complete);
    assertEquals(READERS, drains.queued(), "each write's completion woke its reader");
    drains.runAll();

    for (RecordingOutput connection : connections) {
      assertEquals(2, connection.writes.size(), "the stream's two commits in one write");
      assertEquals(List.of("a/1a/2"), data(connection.writes.get(1)), "the stream's blocks only");
      assertEquals(List.of(new StreamOffset(5).toString()), next(connection.writes.get(1)));
      assertTrue(connections.get(0).arrays.get(1) == connection.arrays.get(1), "every reader writes the same bytes");
    }
  }

  @Test
  void readersBehindTheRecentBlocksAreSentTheSamePagesReadAndEncodedOnce() {
    StringBuilder expected = new StringBuilder("a/0");
    for (int round = 0; round < 10; round++) {
      space.append(2);
      space.appendElsewhere(1);
      expected.append("a/").append(1 + 2 * round).append("a/").append(2 + 2 * round);
    }
    space.committedAndSignalled();
    assertEquals(0, drains.queued(), "commits woke readers whose connections were busy");

    RecordingOutput.takeEverything(connections);
    drains.runAll();

    int writes = connections.get(0).writes.size();
    assertTrue(writes > 4, "the 20 blocks behind in batches of at most 4: " + connections.get(0).writes);
    for (RecordingOutput connection : connections) {
      assertEquals(writes, connection.writes.size());
      StringBuilder data = new StringBuilder();
      for (int write = 0; write < writes; write++) {
        assertTrue(write == 0 || connections.get(0).arrays.get(write) == connection.arrays.get(write),
            "write " + write + " is the same bytes on every reader: " + connection.writes.get(write));
        data(connection.writes.get(write)).forEach(data::append);
      }
      assertEquals(expected.toString(), data.toString(), "every block of the stream once, in order");
      List<String> offsets = next(connection.writes.get(writes - 1));
      assertEquals(new StreamOffset(30).toString(), offsets.get(offsets.size() - 1), "the last block's offset");
    }
  }

  /** The data of each data event in {@code events}. */
  private static List<String> data(String events) {
    return all(DATA.matcher(events));
  }

  /** The {@code streamNextOffset} of each control event in {@code events}. */
  private static List<String> next(String events) {
    return all(NEXT.matcher(events));
  }

  private static List<String> all(Matcher matcher) {
    List<String> found = new ArrayList<>();
    while (matcher.find()) {
      found.add(matcher.group(1));
    }
    return found;
  }
}
