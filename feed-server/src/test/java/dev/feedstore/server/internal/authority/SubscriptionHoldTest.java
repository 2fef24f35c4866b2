package dev.feedstore.server.internal.authority;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SubscriptionBook#hold}: the lowest position of a space that its live durable subscriptions
 * still need, which retention keeps; an expired one holds nothing.
 */
class SubscriptionHoldTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  final SpaceId space = SpaceId.of("s");
  final Scope.Selection scope = new Scope.Selection(Set.of(TestBlocks.feedId()), Set.of());

  @Test
  void theHoldIsAfterTheLowestAckOfTheLiveDurableSubscriptionsAndAnExpiredOneReleasesIt() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedId feed = scope.feeds().iterator().next();
      store.write(tx -> {
        tx.feeds().create(space, feed, Optional.empty());
        for (int i = 0; i < 10; i++) {
          tx.blocks().insert(space, TestBlocks.positioned(feed, "a", i, i + 1));
        }
        tx.blocks().claimPositions(space, 10);
        return null;
      });
      SubscriptionBook book = new SubscriptionBook(store, clock, ServerSettings.DEFAULTS);
      assertEquals(OptionalLong.empty(), book.hold(space), "nothing held without durable subscriptions");
      book.create(new SubscribeCommand(space, scope, OptionalLong.of(60_000)));
      assertEquals(OptionalLong.empty(), book.hold(space), "one that is not durable holds nothing");

      String slow = book.create(new SubscribeCommand(space, scope, OptionalLong.of(60_000), true, Optional.empty()))
          .subscription().id();
      String fast = book.create(new SubscribeCommand(space, scope, OptionalLong.of(120_000), true, Optional.of("f")))
          .subscription().id();
      assertEquals(OptionalLong.of(1), book.hold(space), "a new one needs the whole history");
      book.ack(slow, space, 3);
      book.ack(fast, space, 8);
      assertEquals(OptionalLong.of(4), book.hold(space));
      assertEquals(OptionalLong.empty(), book.hold(SpaceId.of("other")));

      clock.advance(Duration.ofSeconds(60));
      assertEquals(OptionalLong.of(9), book.hold(space), "the slow one expired and released its hold");
      clock.advance(Duration.ofSeconds(60));
      assertEquals(OptionalLong.empty(), book.hold(space));
    }
  }
}
