package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
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

class SubscriptionTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).clock(clock).start();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  SubscribeResponse subscribe(SubscribeRequest.Builder request) {
    return t.blocking().subscribe(request.setSpaceId("s").build());
  }

  QueryResponse query(String space, String subscriptionId) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId(space).setSubscriptionId(subscriptionId).build());
  }

  @Test
  void aSubscriptionLastsAnHourByDefaultAndHasARandomId() {
    SubscribeResponse one = subscribe(SubscribeRequest.newBuilder().setRequestId("x").addFeedIds(feed.value()));
    SubscribeResponse two = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()));

    assertEquals("x", one.getRequestId());
    assertEquals(clock.millis() + 3_600_000, one.getExpiresAt());
    assertEquals(22, one.getSubscriptionId().length(), "128 bits in base64url");
    assertFalse(one.getSubscriptionId().equals(two.getSubscriptionId()));
    assertFalse(one.getServerToken().isEmpty());
  }

  @Test
  void aQueryReadsTheScopeAndSlidesTheExpiry() {
    FeedId other = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0), Wire.block(other, "a", 0)));
    String id = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).setTtlMs(60_000)).getSubscriptionId();

    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofSeconds(50));
      assertEquals(List.of(1L), QueryTest.positions(query("s", id)));
    }
    long expiresAt = t.sqlite.read(tx -> tx.subscriptions().find(id)).orElseThrow().expiresAtMillis();
    assertEquals(clock.millis() + 60_000, expiresAt);
  }

  @Test
  void anExpiredSubscriptionIsNotFoundAndSaysToSubscribeAgain() {
    String id = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).setTtlMs(60_000)).getSubscriptionId();
    clock.advance(Duration.ofSeconds(60));

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> query("s", id));

    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("expired"), e.getStatus().getDescription());
    assertTrue(e.getStatus().getDescription().contains("subscribe again"), e.getStatus().getDescription());
  }

  @Test
  void anUnknownSubscriptionOrOneOfAnotherSpaceIsNotFound() {
    String id = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value())).getSubscriptionId();

    StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class, () -> query("s", "no-such-id"));
    StatusRuntimeException otherSpace = assertThrows(StatusRuntimeException.class, () -> query("other", id));

    assertEquals(Status.Code.NOT_FOUND, unknown.getStatus().getCode());
    assertTrue(unknown.getStatus().getDescription().contains("subscribe again"));
    assertEquals(Status.Code.NOT_FOUND, otherSpace.getStatus().getCode());
  }

  @Test
  void aNamespaceSubscriptionCoversFeedsCreatedLater() {
    String id = subscribe(SubscribeRequest.newBuilder().addNamespaces("data")).getSubscriptionId();
    FeedId later = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    t.blocking().append(Wire.append("s", Wire.block(later, "a", 0)).toBuilder().setNamespace("data").build());

    assertEquals(List.of(2L), QueryTest.positions(query("s", id)));
  }

  @Test
  void aSubscriptionOfFeedsAndNamespacesCoversBoth() {
    FeedId inNamespace = TestBlocks.feedId();
    FeedId outside = TestBlocks.feedId();
    t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
    t.blocking().append(Wire.append("s", Wire.block(inNamespace, "a", 0)).toBuilder().setNamespace("data").build());
    t.blocking().append(Wire.append("s", Wire.block(outside, "a", 0)));
    String id = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).addNamespaces("data"))
        .getSubscriptionId();

    assertEquals(List.of(1L, 2L), QueryTest.positions(query("s", id)));
  }

  @Test
  void ttlMustBePositiveAndWithinTheMaximum() {
    StatusRuntimeException zero = assertThrows(StatusRuntimeException.class,
        () -> subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).setTtlMs(0)));
    StatusRuntimeException tooLong = assertThrows(StatusRuntimeException.class,
        () -> subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).setTtlMs(86_400_001)));

    assertEquals(Status.Code.INVALID_ARGUMENT, zero.getStatus().getCode());
    assertTrue(zero.getStatus().getDescription().startsWith("ttl_ms must be > 0"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, tooLong.getStatus().getCode());
    assertTrue(tooLong.getStatus().getDescription().startsWith("subscription-max-ttl-ms limit is 86400000"),
        tooLong.getStatus().getDescription());
  }

  @Test
  void aSubscriptionNeedsAFeedOrANamespaceAndValidOnes() {
    StatusRuntimeException empty = assertThrows(StatusRuntimeException.class,
        () -> subscribe(SubscribeRequest.newBuilder()));
    StatusRuntimeException badFeed = assertThrows(StatusRuntimeException.class,
        () -> subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).addFeedIds("nope")));
    StatusRuntimeException badNamespace = assertThrows(StatusRuntimeException.class,
        () -> subscribe(SubscribeRequest.newBuilder().addNamespaces("a b")));

    assertEquals(Status.Code.INVALID_ARGUMENT, empty.getStatus().getCode());
    assertTrue(empty.getStatus().getDescription().startsWith("feed_ids and namespaces must name"));
    assertTrue(badFeed.getStatus().getDescription().startsWith("feed_ids[1] must be a ULID"),
        badFeed.getStatus().getDescription());
    assertTrue(badNamespace.getStatus().getDescription().startsWith("namespaces[0] must be"),
        badNamespace.getStatus().getDescription());
  }

  @Test
  void expiredSubscriptionsArePurged() {
    String shortLived = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value()).setTtlMs(1_000))
        .getSubscriptionId();
    String longLived = subscribe(SubscribeRequest.newBuilder().addFeedIds(feed.value())).getSubscriptionId();
    clock.advance(Duration.ofSeconds(2));

    t.server.tick();

    assertTrue(t.sqlite.read(tx -> tx.subscriptions().find(shortLived)).isEmpty());
    assertTrue(t.sqlite.read(tx -> tx.subscriptions().find(longLived)).isPresent());
  }
}
