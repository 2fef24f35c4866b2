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
import dev.feedstore.core.StreamName;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Heap;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server-Sent Events cost bounded memory and no thread per stream: a reader that stops reading
 * holds one event batch in the server (the stream resumes from storage), and a thousand open
 * streams are served by the HTTP side's few threads. Many event streams of one space, and many live
 * readers of one Durable Stream, sent the same batches from shared encodings (and, once behind the
 * recent blocks, the same pages), each receive every block once and in order, also those that stall
 * while the blocks are appended (their connections fill, their followers stop, and they read on from
 * the store when they resume).
 */
class SseFlowControlTest {
  private static final int BLOCKS = 20_000;
  private static final int BLOCK_BYTES = 1024;

  /** Blocks of 4 KiB for the readers of many, so that a stalled reader's connection fills long before the last one. */
  private static final int WIDE_BLOCK_BYTES = 4096;
  private static final int WIDE_BLOCKS = 3000;
  private static final int READERS = 8;
  private static final int STALLED = 4;

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

  private void startWithSmallTail() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(TAIL_BLOCKS, 128).build()).http().start();
  }

  @Test
  void everyEventStreamOfASpaceGetsEveryBlockOnceInOrderAlsoThoseThatStallAndResume() {
    startWithSmallTail();
    FeedId feed = TestBlocks.feedId();
    for (int i = 0; i < READERS; i++) {
      SseReader events = SseReader.open(t.http(), "/v1/spaces/s/events?after=0");
      readers.add(events);
      events.next("caught-up");
    }
    readers.subList(0, STALLED).forEach(SseReader::pause);

    t.appendRange(feed, 0, WIDE_BLOCKS, ByteString.copyFrom(TestBlocks.bytes(WIDE_BLOCK_BYTES).toByteArray()));

    readers.subList(0, STALLED).forEach(SseReader::resume);
    for (SseReader events : readers) {
      assertEquals(WatchTest.range(1, WIDE_BLOCKS), events.positions(WIDE_BLOCKS), "every block once, in order");
    }
  }

  @Test
  void everyLiveReaderOfADurableStreamGetsEveryBlockOnceInOrderAlsoThoseThatStallAndResume() {
    startWithSmallTail();
    Streams streams = new Streams(t.http());
    assertEquals(201, streams.create("wide", "text/plain", "").statusCode());
    for (int i = 0; i < READERS; i++) {
      SseReader events = SseReader.open(t.http(), "/v1/stream/wide?offset=now&live=sse");
      readers.add(events);
      events.next("control");
    }
    readers.subList(0, STALLED).forEach(SseReader::pause);

    // Written into the stream's feed over gRPC, 500 blocks to an Append, as a replica's pushes arrive.
    FeedId feed = StreamName.of("wide").feedId(0);
    for (int start = 0; start < WIDE_BLOCKS; start += 500) {
      List<dev.feedstore.proto.v1.Block> batch = new ArrayList<>();
      for (int i = start; i < start + 500; i++) {
        batch.add(Wire.block(feed, "a", i).toBuilder().setData(ByteString.copyFrom(text(i), StandardCharsets.UTF_8))
            .build());
      }
      t.blocking().append(Wire.append("streams", batch));
    }

    readers.subList(0, STALLED).forEach(SseReader::resume);
    for (SseReader events : readers) {
      assertEquals(WatchTest.range(0, WIDE_BLOCKS - 1), numbers(events), "every block once, in order");
    }
  }

  /** Block {@code i}'s text: its number in six digits, then letters up to the block size; no line breaks. */
  private static String text(int i) {
    return String.format("%06d", i) + "x".repeat(WIDE_BLOCK_BYTES - 6);
  }

  /** The numbers of the blocks in the data events of {@code events}, until {@link #WIDE_BLOCKS} arrived. */
  private static List<Long> numbers(SseReader events) {
    List<Long> numbers = new ArrayList<>();
    while (numbers.size() < WIDE_BLOCKS) {
      String data = events.next("data").data();
      for (int at = 0; at < data.length(); at += WIDE_BLOCK_BYTES) {
        numbers.add(Long.parseLong(data.substring(at, at + 6)));
        assertEquals(text(numbers.get(numbers.size() - 1).intValue()), data.substring(at, at + WIDE_BLOCK_BYTES));
      }
    }
    return numbers;
  }
}
