package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SCOPE;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The largest scope {@code feeds-per-scope} may allow (its maximum, 5,000
 * names, the longest namespaces among them) is read from storage without error, in a Query, a Watch
 * and through a subscription. (40,000 feed ids made the store's statement too long: INTERNAL.)
 */
class LargestScopeTest {
  private static final int MAX = (int) FEEDS_PER_SCOPE.max();

  @TempDir Path dir;

  @Test
  void theLargestAllowedScopeIsServedByQueryWatchAndSubscriptions() {
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(FEEDS_PER_SCOPE, MAX).build()).start()) {
      FeedId stored = TestBlocks.feedId();
      t.blocking().append(Wire.append("s", Wire.block(stored, "a", 0)));
      List<String> feeds = new ArrayList<>(List.of(stored.value()));
      while (feeds.size() < MAX) {
        feeds.add(TestBlocks.feedId().value());
      }
      List<String> namespaces = new ArrayList<>();
      for (int i = 0; i < MAX / 2; i++) {
        namespaces.add(String.format("%0128d", i));
      }
      String subscription = t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s")
          .addAllFeedIds(feeds.subList(0, MAX / 2)).addAllNamespaces(namespaces).build()).getSubscriptionId();

      QueryRequest byFeeds = QueryRequest.newBuilder().setSpaceId("s").addAllFeedIds(feeds).build();
      assertEquals(1, t.blocking().query(byFeeds).getBlocksCount());
      QueryRequest bySubscription = QueryRequest.newBuilder().setSpaceId("s").setSubscriptionId(subscription).build();
      assertEquals(1, t.blocking().query(bySubscription).getBlocksCount());
      assertTrue(Calls.firstWatchEvent(t.channel, WatchRequest.newBuilder().setSpaceId("s").addAllFeedIds(feeds).build())
          .hasBlocks());
      assertTrue(Calls.firstWatchEvent(t.channel, WatchRequest.newBuilder().setSpaceId("s")
          .setSubscriptionId(subscription).build()).hasBlocks());
    }
  }
}
