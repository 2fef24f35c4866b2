package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.Wire;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two servers over one PostgreSQL database: a durable subscription made and acknowledged through
 * one is found by its name, read from its acknowledged position and listed through the other, and
 * its expiry is seen by both (the acknowledged position lives in the store, not in a process).
 */
class PostgresDurableSubscriptionTest {
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();
  PostgresServer one;
  PostgresServer two;

  @AfterEach
  void stop() {
    for (PostgresServer server : new PostgresServer[] {one, two}) {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void theAcknowledgedPositionIsSharedByEveryProcessOfTheStore() {
    String url = PostgresServer.newDatabase();
    ServerSettings settings = ServerSettings.newBuilder().build();
    one = PostgresServer.on(url, settings, clock);
    two = PostgresServer.on(url, settings, clock);
    SubscribeRequest subscribe = SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .setDurable(true).setName("worker").setAckWithinMs(60_000).build();

    one.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 5)));
    SubscribeResponse made = one.blocking().subscribe(subscribe);
    one.blocking().ack(AckRequest.newBuilder().setSpaceId("s").setSubscriptionId(made.getSubscriptionId())
        .setUpTo(3).build());

    SubscribeResponse found = two.blocking().subscribe(subscribe);
    assertEquals(made.getSubscriptionId(), found.getSubscriptionId());
    assertFalse(found.getCreated());
    assertEquals(3, found.getAcked());
    assertEquals(List.of(4L, 5L), QueryTest.positions(two.blocking().query(QueryRequest.newBuilder().setSpaceId("s")
        .setSubscriptionId(made.getSubscriptionId()).setFromAck(true).build())));
    assertEquals(2, two.blocking().listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("s").build())
        .getSubscriptions(0).getLag());

    clock.advance(Duration.ofSeconds(60));
    for (PostgresServer server : new PostgresServer[] {one, two}) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> server.blocking().ack(
          AckRequest.newBuilder().setSpaceId("s").setSubscriptionId(made.getSubscriptionId()).setUpTo(5).build()));
      assertEquals(WireErrors.SUBSCRIPTION_EXPIRED, WireErrors.reason(e));
    }
  }
}
