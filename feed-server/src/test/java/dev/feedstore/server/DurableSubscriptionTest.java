package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.AckResponse;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable subscriptions over gRPC: an acknowledged position kept in the store, reads from it, a
 * deadline that only acknowledgements move (on a controlled clock), and the reasons that tell an
 * expired subscription from an unknown one.
 */
class DurableSubscriptionTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();
  TestServer t;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).clock(clock).start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  SubscribeResponse durable(String name, long ackWithinMs) {
    SubscribeRequest.Builder request = SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .setDurable(true).setAckWithinMs(ackWithinMs);
    if (name != null) {
      request.setName(name);
    }
    return t.blocking().subscribe(request.build());
  }

  AckResponse ack(String id, long upTo) {
    return t.blocking().ack(AckRequest.newBuilder().setRequestId("a").setSpaceId("s").setSubscriptionId(id)
        .setUpTo(upTo).build());
  }

  QueryResponse fromAck(String id) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).setFromAck(true).build());
  }

  void appendBlocks(int count) {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", sequenceOffset, count)));
    sequenceOffset += count;
  }

  long sequenceOffset;

  @Test
  void aQueryFromTheAckReadsWhatIsNotAcknowledgedYet() {
    appendBlocks(3);
    SubscribeResponse subscribed = durable(null, 60_000);
    assertEquals(0, subscribed.getAcked());
    assertTrue(subscribed.getCreated());

    assertEquals(List.of(1L, 2L, 3L), QueryTest.positions(fromAck(subscribed.getSubscriptionId())));
    AckResponse acked = ack(subscribed.getSubscriptionId(), 2);
    assertEquals("a", acked.getRequestId());
    assertEquals(2, acked.getAcked());
    assertEquals(clock.millis() + 60_000, acked.getExpiresAt());
    assertEquals(subscribed.getServerToken(), acked.getServerToken());
    assertEquals(List.of(3L), QueryTest.positions(fromAck(subscribed.getSubscriptionId())));

    assertEquals(2, ack(subscribed.getSubscriptionId(), 1).getAcked(), "an older ack does not move it back");
    assertEquals(2, t.sqlite.read(tx -> tx.subscriptions().find(subscribed.getSubscriptionId())).orElseThrow()
        .durable().orElseThrow().acked(), "kept in the store");
  }

  @Test
  void aWatchFromTheAckStartsAfterIt() {
    appendBlocks(3);
    String id = durable(null, 60_000).getSubscriptionId();
    ack(id, 2);

    WatchEvent first = Calls.firstWatchEvent(t.channel,
        WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).setFromAck(true).build());

    assertEquals(3L, first.getBlocks().getBlocks(0).getPosition());
    assertEquals(1, first.getBlocks().getBlocksCount());
  }

  @Test
  void usingADurableSubscriptionDoesNotMoveItsDeadlineOnlyAnAckDoes() {
    appendBlocks(1);
    String id = durable(null, 60_000).getSubscriptionId();
    long deadline = clock.millis() + 60_000;
    clock.advance(Duration.ofSeconds(50));
    fromAck(id);
    assertEquals(deadline, t.sqlite.read(tx -> tx.subscriptions().find(id)).orElseThrow().expiresAtMillis());

    ack(id, 0);
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofSeconds(50));
      ack(id, 1);
    }
    clock.advance(Duration.ofSeconds(59));
    assertEquals(List.of(), QueryTest.positions(fromAck(id)), "alive one millisecond before its deadline");
  }

  @Test
  void oneNotAcknowledgedInTimeExpiresAndSaysSoDistinctFromAnUnknownId() {
    appendBlocks(1);
    String id = durable(null, 60_000).getSubscriptionId();
    clock.advance(Duration.ofSeconds(60));

    StatusRuntimeException query = assertThrows(StatusRuntimeException.class, () -> fromAck(id));
    StatusRuntimeException acking = assertThrows(StatusRuntimeException.class, () -> ack(id, 1));
    StatusRuntimeException watch = assertThrows(StatusRuntimeException.class, () -> Calls.firstWatchEvent(t.channel,
        WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).build()));
    StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class, () -> ack("no-such-id", 1));

    for (StatusRuntimeException e : List.of(query, acking, watch)) {
      assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
      assertEquals(WireErrors.SUBSCRIPTION_EXPIRED, WireErrors.reason(e), e.getStatus().getDescription());
      assertTrue(e.getStatus().getDescription().contains("not acknowledged within its ack_within_ms"),
          e.getStatus().getDescription());
    }
    assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    assertEquals(WireErrors.SUBSCRIPTION_UNKNOWN, WireErrors.reason(unknown));
    assertTrue(unknown.getStatus().getDescription().contains("subscribe again"));
  }

  @Test
  void anOpenWatchOfADurableSubscriptionEndsWhenItExpires() {
    String id = durable(null, 60_000).getSubscriptionId();
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    dev.feedstore.proto.v1.FeedSyncGrpc.newStub(t.channel)
        .watch(WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).setFromAck(true).build(), events);
    assertTrue(events.next().hasCaughtUp());

    clock.advance(Duration.ofSeconds(30));
    t.server.tick();
    assertFalse(events.ended(), "an open stream is no acknowledgement, but the deadline has not passed");
    clock.advance(Duration.ofSeconds(30));
    t.server.tick();

    StatusRuntimeException end = events.awaitEndWithTrailers();
    assertEquals(Status.Code.NOT_FOUND, end.getStatus().getCode());
    assertEquals(WireErrors.SUBSCRIPTION_EXPIRED, WireErrors.reason(end));
  }

  @Test
  void aNameFindsTheLiveSubscriptionAndAnExpiredNameStartsANewOne() {
    SubscribeResponse first = durable("worker", 60_000);
    ack(first.getSubscriptionId(), 0);
    appendBlocks(2);
    ack(first.getSubscriptionId(), 2);

    SubscribeResponse again = durable("worker", 60_000);
    assertEquals(first.getSubscriptionId(), again.getSubscriptionId());
    assertFalse(again.getCreated());
    assertEquals(2, again.getAcked());

    StatusRuntimeException otherScope = assertThrows(StatusRuntimeException.class, () -> t.blocking().subscribe(
        SubscribeRequest.newBuilder().setSpaceId("s").addNamespaces("n").setDurable(true).setName("worker").build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, otherScope.getStatus().getCode());
    assertTrue(otherScope.getStatus().getDescription().startsWith("name must not be 'worker'")
        || otherScope.getStatus().getDescription().contains("another scope"), otherScope.getStatus().getDescription());

    clock.advance(Duration.ofSeconds(60));
    SubscribeResponse renewed = durable("worker", 60_000);
    assertTrue(renewed.getCreated());
    assertFalse(renewed.getSubscriptionId().equals(first.getSubscriptionId()));
    assertEquals(0, renewed.getAcked(), "an expired subscription held nothing: the new one starts at the start");
    assertEquals(WireErrors.SUBSCRIPTION_UNKNOWN, WireErrors.reason(
        assertThrows(StatusRuntimeException.class, () -> fromAck(first.getSubscriptionId()))),
        "the one it replaced is gone");
  }

  @Test
  void theListShowsEachDurableSubscriptionWithItsLag() {
    appendBlocks(5);
    String named = durable("worker", 60_000).getSubscriptionId();
    String unnamed = durable(null, 30_000).getSubscriptionId();
    t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value()).build());
    ack(named, 4);
    clock.advance(Duration.ofSeconds(30));

    ListSubscriptionsResponse list = t.blocking().listSubscriptions(
        ListSubscriptionsRequest.newBuilder().setRequestId("l").setSpaceId("s").build());

    assertEquals("l", list.getRequestId());
    assertEquals(5, list.getMaxPosition());
    assertEquals(2, list.getSubscriptionsCount(), "the one that is not durable is not listed");
    DurableSubscription worker = list.getSubscriptionsList().stream()
        .filter(s -> s.getSubscriptionId().equals(named)).findFirst().orElseThrow();
    DurableSubscription other = list.getSubscriptionsList().stream()
        .filter(s -> s.getSubscriptionId().equals(unnamed)).findFirst().orElseThrow();
    assertEquals("worker", worker.getName());
    assertEquals(4, worker.getAcked());
    assertEquals(1, worker.getLag());
    assertFalse(worker.getExpired());
    assertFalse(other.hasName());
    assertEquals(5, other.getLag());
    assertTrue(other.getExpired());
  }

  @Test
  void anAckMustNameADurableSubscriptionAndADeliveredPosition() {
    appendBlocks(2);
    String id = durable(null, 60_000).getSubscriptionId();
    String plain = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .build()).getSubscriptionId();

    assertInvalid("up_to must be >= 0", () -> ack(id, -1));
    assertInvalid("up_to must be at most the space's highest position, 2", () -> ack(id, 3));
    assertInvalid("subscription_id names a subscription that is not durable", () -> ack(plain, 1));
    assertInvalid("subscription_id must be 1-128 characters", () -> ack("", 1));
    assertInvalid("subscription_id must be 1-128 characters", () -> ack("x".repeat(129), 1));
    assertInvalid("from_ack needs a durable subscription", () -> t.blocking().query(
        QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(plain).setFromAck(true).build()));
    assertInvalid("from_ack needs a durable subscription", () -> t.blocking().query(
        QueryRequest.newBuilder().setSpaceId("s").setFromAck(true).build()));
    assertInvalid("cursor must be 0 with from_ack", () -> t.blocking().query(
        QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(id).setFromAck(true).setCursor(1).build()));
    assertInvalid("from_ack needs a durable subscription", () -> Calls.firstWatchEvent(t.channel,
        WatchRequest.newBuilder().setSpaceId("s").setNamespace("n").setFromAck(true).build()));
    assertEquals(0, t.sqlite.read(tx -> tx.subscriptions().find(id)).orElseThrow().durable().orElseThrow().acked(),
        "nothing refused changed it");
  }

  @Test
  void aDurableSubscribeChecksItsFields() {
    SubscribeRequest.Builder base = SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value());

    assertInvalid("ttl_ms is not for a durable subscription",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setTtlMs(1_000).build()));
    assertInvalid("ack_within_ms is for a durable subscription only",
        () -> t.blocking().subscribe(base.clone().setAckWithinMs(1_000).build()));
    assertInvalid("name is for a durable subscription only",
        () -> t.blocking().subscribe(base.clone().setName("w").build()));
    assertInvalid("name must be 1-128 printable ASCII characters",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setName("").build()));
    assertInvalid("name must be 1-128 printable ASCII characters",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setName("a\nb").build()));
    assertInvalid("name must be 1-128 printable ASCII characters",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setName("é").build()));
    assertInvalid("name must be 1-128 printable ASCII characters",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setName("n".repeat(129)).build()));
    assertInvalid("ack_within_ms must be > 0",
        () -> t.blocking().subscribe(base.clone().setDurable(true).setAckWithinMs(0).build()));
    StatusRuntimeException tooLong = assertThrows(StatusRuntimeException.class,
        () -> t.blocking().subscribe(base.clone().setDurable(true).setAckWithinMs(86_400_001).build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, tooLong.getStatus().getCode());
    assertTrue(tooLong.getStatus().getDescription().startsWith("subscription-max-ttl-ms limit is 86400000"));
    assertEquals(0L, t.sqlite.<Long>read(tx -> tx.subscriptions().countUnexpired(dev.feedstore.core.SpaceId.of("s"),
        clock.millis())), "nothing refused was stored");
  }

  private static void assertInvalid(String start, Runnable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus().getDescription());
    assertTrue(e.getStatus().getDescription().startsWith(start), e.getStatus().getDescription());
  }
}
