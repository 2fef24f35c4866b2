package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.CompactResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.ManualWatch;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compact over gRPC: the floor in every answer, CURSOR_COMPACTED below it, cursor 0 from it, the
 * rollback signals at and above it, and a Watch whose catch-up a compaction overtakes.
 */
class CompactionTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private void append(int count) {
    long first = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getMaxPosition();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", first, count)));
  }

  private CompactResponse compact(long upTo) {
    return t.blocking().compact(CompactRequest.newBuilder().setRequestId("c").setSpaceId("s").setUpTo(upTo).build());
  }

  private QueryResponse query(long cursor) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(cursor).build());
  }

  private static List<Long> positions(QueryResponse response) {
    return response.getBlocksList().stream().map(b -> b.getPosition()).toList();
  }

  @Test
  void compactRemovesHistoryUpToThePositionAndEveryAnswerCarriesTheFloor() {
    append(10);
    assertEquals(0, query(0).getFloor());

    CompactResponse compacted = compact(4);

    assertEquals(4, compacted.getFloor());
    assertEquals(4, compacted.getRemoved());
    assertEquals("c", compacted.getRequestId());
    assertEquals(query(0).getServerToken(), compacted.getServerToken());
    QueryResponse fromStart = query(0);
    assertEquals(List.of(5L, 6L, 7L, 8L, 9L, 10L), positions(fromStart), "cursor 0 starts at the floor");
    assertEquals(4, fromStart.getFloor(), "and says so");
    assertEquals(List.of(6L, 7L, 8L, 9L, 10L), positions(query(5)));
    assertEquals(0, compact(3).getRemoved(), "the floor never moves down");
    assertEquals(4, compact(3).getFloor());
  }

  @Test
  void aCursorBelowTheFloorIsFailedPreconditionWithTheReasonAndTheFloor() {
    append(10);
    compact(4);

    StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> query(2));

    assertEquals(Status.Code.FAILED_PRECONDITION, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("cursor 2 is below the floor 4"),
        refused.getStatus().getDescription());
    assertEquals(OptionalLong.of(4), WireErrors.compactedFloor(refused));
    assertEquals(OptionalLong.empty(), WireErrors.compactedFloor(
        assertThrows(StatusRuntimeException.class, () -> t.blocking().query(QueryRequest.newBuilder()
            .setSpaceId("s").setCursor(-1).build()))), "other refusals carry no floor");
  }

  @Test
  void theRollbackSignalsKeepWorkingAtAndAboveTheFloor() {
    append(10);
    QueryResponse before = query(4);
    QueryResponse lastBefore = query(9);

    compact(4);

    QueryResponse atFloor = query(4);
    assertEquals(before.getCursorBlock(), atFloor.getCursorBlock(), "the key of the removed block at the floor");
    assertEquals(before.getCursorChain(), atFloor.getCursorChain(), "and the chain there");
    assertEquals(before.getLastChain(), atFloor.getLastChain());
    assertEquals(10, atFloor.getMaxPosition());

    compact(100);
    QueryResponse emptied = query(10);
    assertEquals(10, emptied.getFloor(), "everything up to the last block");
    assertEquals(10, emptied.getMaxPosition(), "the highest position stays, so a replica sees no rollback");
    assertEquals(lastBefore.getLastChain(), emptied.getCursorChain());
    assertTrue(emptied.hasCursorBlock());

    append(2);
    QueryResponse after = query(10);
    assertEquals(List.of(11L, 12L), positions(after), "positions go on above the floor");
    QueryResponse next = query(0);
    assertEquals(positions(after), positions(next));
    assertFalse(next.getLastChain() == emptied.getCursorChain(), "the chain goes on from the floor's");
  }

  @Test
  void aWatchBelowTheFloorEndsCompacted() {
    append(10);
    compact(5);
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setSpaceId("s").setCursor(3).build(), events);
    assertEquals(Status.Code.FAILED_PRECONDITION, events.awaitEnd().getCode());

    EventRecorder<WatchEvent> fromZero = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setSpaceId("s").build(), fromZero);
    WatchEvent first = fromZero.next(Duration.ofSeconds(20));
    assertEquals(5, first.getFloor());
    assertEquals(6, first.getBlocks().getBlocks(0).getPosition(), "cursor 0 starts at the floor");
  }

  @Test
  void aCompactionThatOvertakesAWatchsCatchUpEndsItRatherThanSkipping() {
    ByteString data = ByteString.copyFrom(TestBlocks.bytes(16 * 1024).toByteArray());
    t.appendRange(feed, 0, 400, data); // 6.4 MB: far more than a stream's flow-control window
    ManualWatch watch = ManualWatch.start(t.channel, WatchRequest.newBuilder().setSpaceId("s").setCursor(1).build());
    watch.request(1);
    Await.until("the first batch", () -> watch.received().size() == 1);

    assertEquals(390, compact(390).getFloor());
    watch.request(Integer.MAX_VALUE);
    StatusRuntimeException end = watch.awaitEnd();

    assertEquals(Status.Code.FAILED_PRECONDITION, end.getStatus().getCode(), String.valueOf(end.getStatus()));
    assertEquals(OptionalLong.of(390), WireErrors.compactedFloor(end));
    List<Long> positions = watch.positions();
    assertFalse(positions.isEmpty());
    for (int i = 0; i < positions.size(); i++) {
      assertEquals(2 + i, positions.get(i), "what arrived is gapless from the cursor: nothing was skipped");
    }
    assertTrue(positions.get(positions.size() - 1) < 391, "the stream did not jump over the compacted history");
  }

  @Test
  void aLiveDurableSubscriptionHoldsWhatItHasNotAcknowledged() {
    append(10);
    String id = t.blocking().subscribe(dev.feedstore.proto.v1.SubscribeRequest.newBuilder().setSpaceId("s")
        .addFeedIds(feed.value()).setDurable(true).setAckWithinMs(60_000).build()).getSubscriptionId();
    t.blocking().ack(dev.feedstore.proto.v1.AckRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).setUpTo(3)
        .build());

    CompactResponse compacted = compact(8);

    assertEquals(3, compacted.getFloor(), "positions 4 to 10 are not acknowledged yet");
    assertEquals(List.of(4L, 5L, 6L, 7L, 8L, 9L, 10L), positions(query(3)));
  }
}
