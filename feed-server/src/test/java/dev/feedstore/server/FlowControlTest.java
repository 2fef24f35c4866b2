package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.ManualWatch;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.testing.Await;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watcher that stops reading must not make the server buffer what it does not read: the stream
 * sends only while gRPC flow control says the call is ready, and resumes from storage.
 */
class FlowControlTest {
  private static final int BLOCKS = 20_000;
  private static final int BLOCK_BYTES = 1024;
  private static final int BEHIND_BLOCKS = 3_000;

  @TempDir Path dir;
  TestServer t;

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  @Test
  void aStalledWatcherInProcessDoesNotGrowTheHeapAndThenGetsEverythingInOrder() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(settings()).start();
    stalledWatcherReceivesEverythingWithoutHeapGrowth("in-process");
  }

  @Test
  void aStalledWatcherOverLoopbackDoesNotGrowTheHeapAndThenGetsEverythingInOrder() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(settings()).loopback().start();
    stalledWatcherReceivesEverythingWithoutHeapGrowth("loopback");
  }

  /**
   * Streams that fell behind the recent blocks the server holds, together, share the pages they
   * read from storage: each still gets every block once, in order, with its own request id.
   */
  @Test
  void streamsThatFellBehindTogetherEachGetEveryBlockOnceInOrder() {
    t = TestServer.on(dir.resolve("feeds.db")).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(TAIL_BLOCKS, 64).set(WATCH_BATCH_BLOCKS, 50).build()).loopback().start();
    FeedId feed = TestBlocks.feedId();
    FeedId other = TestBlocks.feedId();
    // 3 MB to each stream: more than its flow-control window, so that it falls behind the tail.
    ByteString data = ByteString.copyFrom(TestBlocks.bytes(BLOCK_BYTES).toByteArray());
    t.appendRange(feed, 0, 10, data);
    List<ManualWatch> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      WatchRequest.Builder request = WatchRequest.newBuilder().setSpaceId("s").setCursor(10).setRequestId("r" + i);
      ManualWatch call = ManualWatch.start(t.channel, request.build());
      call.request(1); // caught up, then nothing more until the blocks are far behind
      calls.add(call);
    }
    for (ManualWatch call : calls) {
      Await.until("caught up", () -> !call.received().isEmpty());
      assertTrue(call.received().peek().hasCaughtUp());
    }
    // Two feeds interleaved, so that the pages have blocks of both.
    for (int i = 0; i < BEHIND_BLOCKS / 100; i++) {
      t.appendRange(feed, 10 + i * 50, 50, data);
      t.appendRange(other, i * 50, 50, data);
    }

    calls.forEach(call -> call.request(Integer.MAX_VALUE));

    for (int i = 0; i < calls.size(); i++) {
      ManualWatch call = calls.get(i);
      List<Long> positions = new ArrayList<>();
      Await.until("every block reached stream " + i, () -> {
        positions.clear();
        for (WatchEvent event : call.received()) {
          event.getBlocks().getBlocksList().forEach(b -> positions.add(b.getPosition()));
        }
        return positions.size() >= BEHIND_BLOCKS;
      });
      assertEquals(WatchTest.range(11, 10 + BEHIND_BLOCKS), positions,
          "stream " + i + ": everything, once, in order");
      String requestId = "r" + i;
      call.received().forEach(event -> assertEquals(requestId, event.getRequestId()));
      call.cancel();
    }
  }

  private static ServerSettings settings() {
    // A small shared tail, so that what the heap holds for live watchers is visibly bounded.
    return ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(TAIL_BLOCKS, 256).set(TAIL_BYTES, 512 * 1024)
        .build();
  }

  private void stalledWatcherReceivesEverythingWithoutHeapGrowth(String transport) {
    FeedId feed = TestBlocks.feedId();
    ByteString data = ByteString.copyFrom(TestBlocks.bytes(BLOCK_BYTES).toByteArray());
    t.appendRange(feed, 0, 200, data); // warm up classes, caches and connections before measuring

    ManualWatch call = ManualWatch.start(t.channel, WatchRequest.newBuilder().setSpaceId("s").setCursor(200).build());
    ConcurrentLinkedQueue<WatchEvent> received = call.received();
    call.request(1);
    Await.until("the first event", () -> received.size() == 1);
    assertTrue(received.peek().hasCaughtUp());
    call.request(1); // one more, then the reader stops reading

    long before = usedHeapAfterGc();
    t.appendRange(feed, 200, BLOCKS, data);
    long after = usedHeapAfterGc();
    int receivedWhileStalled = received.size();

    long appendedBytes = (long) BLOCKS * BLOCK_BYTES;
    long growth = after - before;
    System.out.printf("stalled watcher (%s): appended %d blocks (%.1f MiB of data) while it read nothing;"
            + " used heap %.1f MiB -> %.1f MiB (growth %.2f MiB); events delivered while stalled: %d%n",
        transport, BLOCKS, appendedBytes / 1048576.0, before / 1048576.0, after / 1048576.0,
        growth / 1048576.0, receivedWhileStalled);
    assertTrue(growth < appendedBytes / 4,
        "the heap grew by " + growth + " bytes while " + appendedBytes + " bytes were appended");

    call.request(Integer.MAX_VALUE);
    List<Long> positions = new ArrayList<>();
    Await.until("every block arrived", () -> {
      positions.clear();
      for (WatchEvent event : received) {
        if (event.hasBlocks()) {
          event.getBlocks().getBlocksList().forEach(b -> positions.add(b.getPosition()));
        }
      }
      return positions.size() >= BLOCKS;
    });
    assertEquals(WatchTest.range(201, 200 + BLOCKS), positions, "everything, once, in order");
    call.cancel();
  }


  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
