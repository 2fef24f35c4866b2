package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTIONS_PER_SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code subscriptions-per-space}: the stored subscriptions of one space that have not expired are
 * counted in the store, so every server sharing it refuses the same one, naming the setting, and
 * an expired one makes room.
 */
class SubscriptionLimitTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();

  private static SubscribeRequest subscribe(String space, FeedId feed, long ttlMillis) {
    return SubscribeRequest.newBuilder().setSpaceId(space).addFeedIds(feed.value()).setTtlMs(ttlMillis).build();
  }

  @Test
  void subscriptionsOverTheLimitAreRefusedNamingItByEveryServerOfTheStore() {
    Path file = dir.resolve("feeds.db");
    ServerSettings settings = ServerSettings.newBuilder().set(SUBSCRIPTIONS_PER_SPACE, 3).build();
    try (TestServer a = TestServer.on(file).settings(settings).clock(clock).start();
        TestServer b = TestServer.on(file).settings(settings).clock(clock).start()) {
      a.blocking().subscribe(subscribe("s", feed, 60_000));
      b.blocking().subscribe(subscribe("s", feed, 60_000));
      String third = a.blocking().subscribe(subscribe("s", feed, 10_000)).getSubscriptionId();

      for (TestServer server : new TestServer[] {a, b}) {
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
            () -> server.blocking().subscribe(subscribe("s", feed, 60_000)));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
        assertEquals("subscriptions-per-space limit is 3, space 's' with this subscription (unexpired ones count) has"
            + " 4 (raise the subscriptions-per-space setting or send less)", refused.getStatus().getDescription());
        assertEquals("subscriptions-per-space", refused.getTrailers().get(WireErrors.LIMIT_EXCEEDED).getLimit());
      }
      assertEquals(0, a.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(third).build())
          .getBlocksCount(), "the refusals stored nothing and the third subscription still works");
      b.blocking().subscribe(subscribe("other", feed, 60_000)); // another space counts its own

      clock.advance(Duration.ofSeconds(11)); // the third has expired (it was not used since its renewal)
      b.blocking().subscribe(subscribe("s", feed, 60_000));
      assertThrows(StatusRuntimeException.class, () -> a.blocking().subscribe(subscribe("s", feed, 60_000)));
    }
  }

  @Test
  void theLimitMustBePositive() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ServerSettings.newBuilder().set(SUBSCRIPTIONS_PER_SPACE, 0).build());
    assertTrue(e.getMessage().contains("subscriptions-per-space"), e.getMessage());
  }
}
