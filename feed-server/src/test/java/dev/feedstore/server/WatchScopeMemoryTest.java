package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.Await;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.Heap;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the scope of a Watch stream holds in the server's heap, and how that memory is bounded. */
class WatchScopeMemoryTest {
  @TempDir Path dir;

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
