package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_THREADS;
import static dev.feedstore.server.settings.ServerSettings.RPC_THREADS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCH_THREADS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Heap;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server-Sent Events cost bounded memory and no thread per stream: a reader that stops reading
 * holds one event batch in the server (the stream resumes from storage), and a thousand open
 * streams are served by the HTTP side's few threads.
 */
class SseFlowControlTest {
  private static final int BLOCKS = 20_000;
  private static final int BLOCK_BYTES = 1024;

  @TempDir Path dir;
  TestServer t;
  final List<SseReader> readers = new ArrayList<>();

  @AfterEach
  void stop() {
    readers.forEach(SseReader::close);
    if (t != null) {
      t.close();
    }
  }

  @Test
  void aStalledReaderDoesNotGrowTheHeapAndThenGetsEverythingInOrder() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(TAIL_BLOCKS, 256).set(TAIL_BYTES, 512 * 1024).build()).http().start();
    FeedId feed = TestBlocks.feedId();
    ByteString data = ByteString.copyFrom(TestBlocks.bytes(BLOCK_BYTES).toByteArray());
    t.appendRange(feed, 0, 200, data);
    SseReader events = SseReader.open(t.http(), "/v1/spaces/s/events?after=200");
    readers.add(events);
    assertEquals("caught-up", events.next("caught-up").name());
    events.pause();

    long before = Heap.usedAfterGc();
    t.appendRange(feed, 200, BLOCKS, data);
    long after = Heap.usedAfterGc();

    long appendedBytes = (long) BLOCKS * BLOCK_BYTES;
    System.out.printf("stalled SSE reader: appended %d blocks (%.1f MiB of data, %.1f MiB as events in base64)"
            + " while it read nothing; used heap %.1f MiB -> %.1f MiB%n", BLOCKS, appendedBytes / 1048576.0,
        appendedBytes * 4 / 3 / 1048576.0, before / 1048576.0, after / 1048576.0);
    assertTrue(after - before < appendedBytes / 4,
        "the heap grew by " + (after - before) + " bytes while " + appendedBytes + " bytes were appended");

    events.resume();
    assertEquals(WatchTest.range(201, 200 + BLOCKS), events.positions(BLOCKS), "everything, once, in order");
  }

  @Test
  void aThousandOpenStreamsHoldNoThreadEachAndAllGetTheNextBlock() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    FeedId feed = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    long heapBefore = Heap.usedAfterGc();

    dev.feedstore.server.testing.Http http = t.http(); // one client, as a browser tab or proxy would be
    for (int i = 0; i < 1000; i++) {
      SseReader reader = SseReader.open(http, "/v1/spaces/s/events?after=1");
      readers.add(reader);
    }
    readers.forEach(reader -> reader.next("caught-up"));
    assertEquals(1000, t.server.openWatches());
    long heapAfter = Heap.usedAfterGc();
    long serverThreads = Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("feed-")).count();
    int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();

    System.out.printf("1,000 open SSE streams: the server's threads %d (http-threads %d), the JVM's %d -> %d"
            + " (the test's 1,000 reader threads included); heap %.1f MiB -> %.1f MiB, %.1f KiB a stream, the"
            + " client's side included%n", serverThreads, HTTP_THREADS.defaultValue(), threadsBefore,
        threadsAfter, heapBefore / 1048576.0, heapAfter / 1048576.0, (heapAfter - heapBefore) / 1024.0 / 1000);
    assertTrue(serverThreads <= HTTP_THREADS.defaultValue() + RPC_THREADS.defaultValue()
        + WATCH_THREADS.defaultValue() + 4, "the server's threads: " + serverThreads);

    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 1)));
    readers.forEach(reader -> assertEquals(List.of(2L), reader.positions(1)));
  }

}
