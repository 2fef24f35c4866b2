package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Context;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 100,000 blocks in one Append, on a server whose {@code blocks-per-append} allows it (the default
 * refuses it; see the sweep): one transaction, dense positions, and a live watcher gets every block
 * once, in order, although the shared tail holds only 4,096. Takes about 20 s, so it runs only with
 * {@code -Dfeed.hostile.heavy=true}.
 */
class LargeAppendTest {
  private static final int BLOCKS = 100_000;

  @TempDir Path dir;

  @Test
  void aHundredThousandBlocksInOneAppendGetDensePositionsAndReachALiveWatcher() {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(BLOCKS_PER_APPEND, BLOCKS).build())
        .start()) {
      FeedId feed = TestBlocks.feedId();
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
      EventRecorder<WatchEvent> watcher = new EventRecorder<>();
      Context.CancellableContext context = Context.current().withCancellation();
      context.run(() -> t.async().watch(WatchRequest.newBuilder().setSpaceId("s").setCursor(1).build(), watcher));
      assertEquals(true, watcher.next().hasCaughtUp());

      long started = System.nanoTime();
      AppendResponse response = t.blocking().withDeadlineAfter(120, TimeUnit.SECONDS)
          .append(Wire.append("s", Wire.blocks(feed, "a", 1, BLOCKS)));

      long appended = System.nanoTime();
      List<Long> expected = WatchTest.range(2, BLOCKS + 1);
      assertEquals(expected, response.getPositionsList());
      List<Long> watched = new ArrayList<>();
      while (watched.size() < BLOCKS) {
        watched.addAll(WatchTest.positions(watcher.next()));
      }
      assertEquals(expected, watched);
      System.out.printf("100000 blocks in one append: committed in %d ms; the live watcher had them all %d ms later%n",
          (appended - started) / 1_000_000, (System.nanoTime() - appended) / 1_000_000);
      assertEquals(BLOCKS + 1, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getMaxPosition());
      context.cancel(null);
    }
  }
}
