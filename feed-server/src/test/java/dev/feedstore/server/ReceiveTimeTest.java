package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authority's receive time: every block stamped with the server's clock when it was positioned,
 * never going back in a space, and Query and Watch from a start time.
 */
class ReceiveTimeTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock(Instant.ofEpochMilli(100_000));
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();
  TestServer t;
  long sequence;

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private void start() {
    t = TestServer.on(dir.resolve("feeds.db"))
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build()).clock(clock).start();
  }

  /** Appends {@code count} blocks of {@code to} at {@code at} on the server's clock. */
  private void appendAt(long at, FeedId to, int count) {
    clock.set(Instant.ofEpochMilli(at));
    t.blocking().append(Wire.append("s", Wire.blocks(to, "a", sequence, count)));
    sequence += count;
  }

  private QueryResponse query(QueryRequest.Builder request) {
    return t.blocking().query(request.setSpaceId("s").build());
  }

  private static List<Long> positions(List<Block> blocks) {
    return blocks.stream().map(Block::getPosition).toList();
  }

  private static List<Long> receivedAt(List<Block> blocks) {
    return blocks.stream().map(Block::getReceivedAt).toList();
  }

  @Test
  void blocksAreStampedWithTheServersClockAndNeverBackwardsWhenItStepsBack() {
    start();
    appendAt(100_000, feed, 2);
    appendAt(50_000, feed, 1); // the clock stepped back
    appendAt(150_000, feed, 1);
    List<Block> blocks = query(QueryRequest.newBuilder()).getBlocksList();
    assertEquals(List.of(100_000L, 100_000L, 100_000L, 150_000L), receivedAt(blocks));
    assertTrue(blocks.stream().allMatch(Block::hasReceivedAt));
    assertTrue(blocks.stream().noneMatch(b -> b.getTimestamp() == b.getReceivedAt()),
        "the author's timestamp stays the author's");
  }

  @Test
  void concurrentAppendsCommittedInGroupsKeepReceiveTimesInPositionOrderWhileTheClockJumps() throws Exception {
    start();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> appends = new ArrayList<>();
      for (int writer = 0; writer < 8; writer++) {
        String actor = "w" + writer;
        appends.add(pool.submit(() -> {
          for (int i = 0; i < 40; i++) {
            clock.set(Instant.ofEpochMilli(100_000 + ThreadLocalRandom.current().nextLong(-50_000, 50_000)));
            t.blocking().append(Wire.append("s", Wire.blocks(feed, actor, i, 1)));
          }
        }));
      }
      for (Future<?> append : appends) {
        append.get();
      }
    } finally {
      pool.shutdownNow();
    }
    List<Block> blocks = new ArrayList<>();
    QueryResponse page;
    do {
      page = query(QueryRequest.newBuilder().setCursor(blocks.size()).setLimit(100));
      blocks.addAll(page.getBlocksList());
    } while (page.getHasMore());
    assertEquals(320, blocks.size());
    for (int i = 1; i < blocks.size(); i++) {
      assertTrue(blocks.get(i).getReceivedAt() >= blocks.get(i - 1).getReceivedAt(),
          "position " + blocks.get(i).getPosition() + " received at " + blocks.get(i).getReceivedAt()
              + ", before position " + blocks.get(i - 1).getPosition() + " at " + blocks.get(i - 1).getReceivedAt());
    }
  }

  @Test
  void aQueryFromAStartTimeReadsExactlyTheBlocksReceivedAtOrAfterIt() {
    start();
    appendAt(1_000, feed, 2); // 1, 2
    appendAt(2_000, other, 2); // 3, 4
    appendAt(3_000, feed, 1); // 5

    QueryResponse fromTwo = query(QueryRequest.newBuilder().setStartTime(2_000));
    assertEquals(List.of(3L, 4L, 5L), positions(fromTwo.getBlocksList()));
    assertEquals(2, fromTwo.getStartCursor(), "the cursor it started after");
    QueryResponse firstPage = query(QueryRequest.newBuilder().setStartTime(2_000).setLimit(2));
    assertEquals(List.of(3L, 4L), positions(firstPage.getBlocksList()));
    assertTrue(firstPage.getHasMore());
    assertEquals(List.of(5L), positions(query(QueryRequest.newBuilder().setCursor(4)).getBlocksList()),
        "the next page goes on from the last block, by cursor");
    QueryResponse between = query(QueryRequest.newBuilder().setStartTime(2_500));
    assertEquals(List.of(5L), positions(between.getBlocksList()));
    assertEquals(4, between.getStartCursor());
    QueryResponse feedOnly = query(QueryRequest.newBuilder().addFeedIds(feed.value()).setStartTime(1_500));
    assertEquals(List.of(5L), positions(feedOnly.getBlocksList()), "in the scope only");
    assertEquals(2, feedOnly.getStartCursor(), "positions are the space's, whatever the scope");
    QueryResponse fromStart = query(QueryRequest.newBuilder().setStartTime(0));
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), positions(fromStart.getBlocksList()));
    assertEquals(0, fromStart.getStartCursor());
    QueryResponse future = query(QueryRequest.newBuilder().setStartTime(10_000));
    assertEquals(List.of(), future.getBlocksList());
    assertEquals(5, future.getStartCursor(), "after everything received so far");
    assertFalse(query(QueryRequest.newBuilder()).hasStartCursor(), "only a read from a time says where it started");
    QueryResponse otherToken = query(QueryRequest.newBuilder().setStartTime(2_500).setExpectedServerToken("elsewhere"));
    assertEquals(List.of(5L), positions(otherToken.getBlocksList()), "a start time is resolved by this store");
  }

  @Test
  void aStartTimeBeforeTheFloorStartsAtTheFloor() {
    start();
    appendAt(1_000, feed, 2);
    appendAt(2_000, feed, 2);
    appendAt(3_000, feed, 1);
    t.blocking().compact(CompactRequest.newBuilder().setSpaceId("s").setUpTo(3).build());

    QueryResponse early = query(QueryRequest.newBuilder().setStartTime(1_000));
    assertEquals(3, early.getStartCursor(), "as far back as the space still goes");
    assertEquals(3, early.getFloor(), "and the floor says history below it is gone");
    assertEquals(List.of(4L, 5L), positions(early.getBlocksList()));
    assertEquals(4, query(QueryRequest.newBuilder().setStartTime(3_000)).getStartCursor(),
        "a time above the floor resolves as before");
  }

  @Test
  void aWatchFromAStartTimeSendsTheBlocksReceivedSinceThenLive() {
    start();
    appendAt(1_000, feed, 2);
    appendAt(2_000, feed, 1);
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setSpaceId("s").setStartTime(1_500).build(), events);
    WatchEvent first = events.next();
    assertEquals(2, first.getStartCursor());
    assertEquals(List.of(3L), positions(first.getBlocks().getBlocksList()));
    assertEquals(List.of(2_000L), receivedAt(first.getBlocks().getBlocksList()));
    assertTrue(events.next().hasCaughtUp());

    appendAt(4_000, feed, 1);
    WatchEvent live = events.next();
    assertFalse(live.hasStartCursor(), "the start cursor goes with the first event only");
    assertEquals(List.of(4L), positions(live.getBlocks().getBlocksList()));
    assertEquals(List.of(4_000L), receivedAt(live.getBlocks().getBlocksList()), "live blocks carry it too");
    assertEquals(0, events.pending());
  }
}
