package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_SCOPE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCH_SCOPE_BYTES_PER_CONNECTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Scope;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.Heap;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Channel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the scope of a Watch stream holds in the server's heap, and how that memory is bounded. */
class WatchScopeMemoryTest {
  @TempDir Path dir;

  /**
   * The memory the scopes of open streams hold is counted per connection and per server; a stream
   * that would go over either is refused naming the setting, and a stream that ends gives its share
   * back. Streams of the whole space hold no scope of their own; a subscription's scope is counted
   * as a listed one.
   */
  @Test
  void scopeMemoryIsBoundedPerConnectionAndPerServerAndGivenBackWhenAStreamEnds() {
    Set<FeedId> feeds = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      feeds.add(TestBlocks.feedId());
    }
    long scope = Scope.feeds(feeds).heapBytes();
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(WATCH_SCOPE_BYTES_PER_CONNECTION, 3 * scope).set(WATCH_SCOPE_BYTES, 5 * scope).build();
    WatchRequest request = WatchRequest.newBuilder().setSpaceId("s")
        .addAllFeedIds(feeds.stream().map(FeedId::value).toList()).build();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).loopback().start()) {
      ManagedChannel first = t.channel;
      ManagedChannel second = Grpc.newChannelBuilderForAddress("127.0.0.1", t.server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        WatchCrowd three = WatchCrowd.open(first, request, 3);
        three.awaitEvents(1);
        Status perConnection = refused(first, request);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, perConnection.getCode());
        assertTrue(perConnection.getDescription().startsWith("watch-scope-bytes-per-connection limit is "
            + 3 * scope + ", scope bytes of open Watch streams on connection "), perConnection.getDescription());
        assertTrue(perConnection.getDescription().endsWith(" with this one has " + 4 * scope
            + " (raise the watch-scope-bytes-per-connection setting or send less)"), perConnection.getDescription());
        assertTrue(Calls.firstWatchEvent(first, WatchRequest.newBuilder().setSpaceId("s").build()).hasCaughtUp(),
            "a stream of the whole space holds no scope");

        WatchCrowd two = WatchCrowd.open(second, request, 2);
        two.awaitEvents(1);
        Status perServer = refused(second, request);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, perServer.getCode());
        assertEquals("watch-scope-bytes limit is " + 5 * scope + ", scope bytes of open Watch streams on this server"
            + " with this one has " + 6 * scope + " (raise the watch-scope-bytes setting or send less)",
            perServer.getDescription());
        String subscription = Calls.blocking(second).subscribe(SubscribeRequest.newBuilder().setSpaceId("s")
            .addAllFeedIds(request.getFeedIdsList()).build()).getSubscriptionId();
        WatchRequest bySubscription = WatchRequest.newBuilder().setSpaceId("s").setSubscriptionId(subscription).build();
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused(second, bySubscription).getCode());

        three.cancelAll();
        Await.until("the first connection's streams are released", () -> t.server.openWatches() == 2);
        WatchCrowd again = WatchCrowd.open(second, bySubscription, 1);
        again.awaitEvents(1);
        assertEquals(0, again.ended(), "the share of ended streams was given back");
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused(second, request).getCode(), "3 on the second connection");
        WatchCrowd.open(first, request, 2).awaitEvents(1);
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused(first, request).getCode(), "5 on the server");
      } finally {
        second.shutdownNow();
      }
    }
  }

  private static Status refused(Channel channel, WatchRequest request) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> Calls.firstWatchEvent(channel, request));
    return e.getStatus();
  }

  /** A scope keeps each feed id as its 128 bits, not as an object with a string (measured, printed). */
  @Test
  void aWatchScopeHoldsFewBytesPerFeedId() {
    int streams = 500;
    int feeds = 1_000;
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start()) {
      FeedId feed = TestBlocks.feedId();
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
      WatchRequest.Builder request = WatchRequest.newBuilder().setSpaceId("s");
      for (int i = 0; i < feeds; i++) {
        request.addFeedIds(TestBlocks.feedId().value());
      }
      long before = Heap.usedAfterGc();

      WatchCrowd crowd = WatchCrowd.open(t.channel, request.build(), streams);
      crowd.awaitAnswered();

      long grown = Heap.usedAfterGc() - before;
      double perFeedId = grown / (double) (streams * feeds);
      System.out.printf("watch scopes: %d streams of %d feed ids hold %.1f MiB, %.1f bytes per feed id per stream"
          + " (server and client over loopback together)%n", streams, feeds, Heap.mib(grown), perFeedId);
      assertTrue(perFeedId < 32, perFeedId + " bytes per feed id per stream");
      crowd.cancelAll();
      Await.until("the streams are released", () -> t.server.openWatches() == 0);
    }
  }
}
