package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.CapturedErr;
import dev.feedstore.testing.DiskFaults;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bit flipped inside a block's data in the server's closed file: reads over gRPC (loopback) that
 * would serve the block fail with {@code DATA_LOSS} naming it, every other read is served.
 */
class CorruptBlockTest {
  @TempDir Path dir;
  private final FeedId feed = TestBlocks.feedId();
  private final FeedId other = TestBlocks.feedId();
  private TestServer t;

  private static String data(long sequence) {
    return "payload-" + sequence + "-" + "z".repeat(40);
  }

  /** Space s: feed a/0..4 at positions 1..5, the other feed at 6..7; space t: one block. Position 3 is corrupt. */
  @BeforeEach
  void serverWithACorruptBlockAtPosition3() {
    Path file = dir.resolve("feeds.db");
    try (TestServer writer = TestServer.on(file).start()) {
      List<Block> blocks = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        blocks.add(Wire.block(feed, "a", i, data(i)));
      }
      writer.blocking().append(Wire.append("s", blocks));
      writer.blocking().append(Wire.append("s", Wire.blocks(other, "b", 0, 2)));
      writer.blocking().append(Wire.append("t", Wire.block(TestBlocks.feedId(), "c", 0)));
    }
    assertEquals(1, DiskFaults.flipABitInside(file, data(2)));
    t = TestServer.on(file).loopback().start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private QueryResponse query(long cursor, int limit) {
    return t.blocking().query(QueryRequest.newBuilder().setRequestId("q").setSpaceId("s").setCursor(cursor)
        .setLimit(limit).build());
  }

  private void assertNamesTheCorruptBlock(Status status) {
    assertEquals(Status.Code.DATA_LOSS, status.getCode(), String.valueOf(status));
    for (String part : List.of("space s", "feed " + feed, "actor a", "sequence 2", "position 3", "corrupt")) {
      assertTrue(status.getDescription().contains(part), status.getDescription());
    }
  }

  @Test
  void aQueryWhoseRangeIncludesTheCorruptBlockFailsWithDataLossNamingItAndIsLoggedAsTheServersFault() {
    try (CapturedErr err = new CapturedErr()) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> query(0, 100));
      assertNamesTheCorruptBlock(e.getStatus());
      assertNamesTheCorruptBlock(assertThrows(StatusRuntimeException.class, () -> query(2, 1)).getStatus());
      String log = err.text();
      assertTrue(log.contains("failed Query from /127.0.0.1:") && log.contains("DATA_LOSS"), log);
      assertFalse(log.contains("rejected Query"), log);
    }
  }

  @Test
  void readsThatDoNotIncludeTheCorruptBlockAreServed() {
    QueryResponse before = query(0, 2);
    assertEquals(List.of(1L, 2L), positions(before.getBlocksList()));
    assertTrue(before.getHasMore());

    QueryResponse after = query(3, 100);
    assertEquals(List.of(4L, 5L, 6L, 7L), positions(after.getBlocksList()));
    assertEquals(2, after.getCursorBlock().getSequence(), "the key at the cursor is still reported");
    assertEquals(feed.value(), after.getCursorBlock().getFeedId());

    QueryResponse otherFeed = t.blocking().query(QueryRequest.newBuilder().setRequestId("q").setSpaceId("s")
        .addFeedIds(other.value()).build());
    assertEquals(List.of(6L, 7L), positions(otherFeed.getBlocksList()));
    assertEquals(1, t.blocking().query(QueryRequest.newBuilder().setRequestId("q").setSpaceId("t").build())
        .getBlocksCount());
    assertEquals(2, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setRequestId("l").setSpaceId("s").build())
        .getFeedsCount());
    assertEquals(List.of(8L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 5))).getPositionsList());
  }

  @Test
  void aWatchWhoseHistoryIncludesTheCorruptBlockEndsWithDataLossAndOneAfterItIsServed() {
    EventRecorder<WatchEvent> fromStart = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setRequestId("w").setSpaceId("s").build(), fromStart);
    assertNamesTheCorruptBlock(fromStart.awaitEnd());
    assertEquals(0, fromStart.pending(), "nothing of the page that holds it was sent");

    EventRecorder<WatchEvent> afterIt = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setRequestId("w").setSpaceId("s").setCursor(3).build(), afterIt);
    assertEquals(List.of(4L, 5L, 6L, 7L), positions(afterIt.next().getBlocks().getBlocksList()));
    assertTrue(afterIt.next().hasCaughtUp());
    t.blocking().append(Wire.append("s", Wire.block(other, "b", 2)));
    assertEquals(List.of(8L), positions(afterIt.next().getBlocks().getBlocksList()));
    assertFalse(afterIt.ended());
  }

  private static List<Long> positions(List<Block> blocks) {
    return blocks.stream().map(Block::getPosition).toList();
  }
}
