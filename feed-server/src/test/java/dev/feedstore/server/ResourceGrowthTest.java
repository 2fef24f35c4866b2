package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.SPACES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.Heap;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.TcpRelay;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.netty.util.internal.PlatformDependent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client can make the server hold that no limit bounds yet, measured and printed: these
 * are open findings of the hostile-input sweep (see Limits in docs/authority.md), kept as tests so
 * that a fix can turn their measurements into bounds. They take minutes and gigabytes, so they
 * run only with {@code -Dfeed.hostile.heavy=true}.
 */
class ResourceGrowthTest {
  @TempDir Path dir;

  /**
   * A Watch stream whose reader stopped reading holds off-heap memory the heap does not show: on
   * the server at most about one batch ({@code watch-batch-bytes}, 256 KiB, or one block) plus
   * gRPC's 32 KiB ready threshold once the client's stream window is full; on the client, its
   * stream window (1 MiB by default in grpc-java). This test runs both in one JVM, so it measures
   * both: 1,000 streams settle near 1.4 GB (client windows ~1 GB), where batches sized by {@code
   * response-bytes} (3 MiB) made it 2.6 GB and more.
   */
  @Test
  void stalledWatchStreamsEachPinABatchOffHeap() {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    int streams = 1000;
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
         TcpRelay relay = new TcpRelay(t.server.port())) {
      FeedId feed = TestBlocks.feedId();
      ByteString data = ByteString.copyFrom(new byte[30 * 1024]);
      List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        blocks.add(Wire.block(feed, "a", i).toBuilder().setData(data).build());
      }
      t.blocking().append(Wire.append("s", blocks));
      long directBefore = PlatformDependent.usedDirectMemory();
      long heapBefore = Heap.usedAfterGc();
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", relay.port(),
          InsecureChannelCredentials.create()).build();
      List<ClientCall<WatchRequest, WatchEvent>> stalled =
          WatchCrowd.openStalled(channel, WatchRequest.newBuilder().setSpaceId("s").build(), streams);
      long oneBlock = data.size();
      Await.until("every stalled stream has sent its first batch", Duration.ofMinutes(3),
          () -> PlatformDependent.usedDirectMemory() - directBefore >= streams * oneBlock * 9 / 10);

      long pinned = PlatformDependent.usedDirectMemory() - directBefore;
      System.out.printf("stalled watchers: %d streams on one connection pin %.0f MiB off-heap (transport buffers)"
              + " while the heap after GC grows %.1f MiB%n", streams, Heap.mib(pinned),
          Heap.mib(Heap.usedAfterGc() - heapBefore));
      relay.cutAll();
      Await.until("the streams are released", Duration.ofSeconds(60), () -> t.server.openWatches() == 0);
      WatchCrowd.drop(stalled);
      channel.shutdownNow();
      long clientWindow = 1 << 20;
      long perStream = clientWindow + WATCH_BATCH_BYTES.defaultValue() + oneBlock + (32 << 10);
      assertTrue(pinned <= streams * perStream * 3 / 2, pinned + " bytes for " + streams + " streams");
    }
  }

  /**
   * The first Append to a space stores the space's server token and keeps its state in memory for
   * the server's life, up to {@code spaces-per-server}, while reads of spaces the server does not
   * hold leave nothing behind: this measures what each costs, and that one more than the setting is
   * refused.
   */
  @Test
  void everySpaceAnAppendCreatesStaysInTheFileAndTheHeapAndReadsLeaveNothing() {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    int spaces = 10_000;
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000)
        .set(SPACES_PER_SERVER, spaces + 1).build();
    FeedId feed = TestBlocks.feedId();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).loopback().start()) {
      t.blocking().append(Wire.append("warm-up", Wire.block(feed, "a", 0)));
      long heapBefore = Heap.usedAfterGc();

      for (int i = 0; i < spaces; i++) {
        t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("read-" + i).build());
      }
      long afterReads = Heap.usedAfterGc();
      assertEquals(1, Census.of(t.file).rows("spaces"), "reads created no space");
      for (int i = 0; i < spaces; i++) {
        t.blocking().append(Wire.append("space-" + i, Wire.block(feed, "a", 0)));
      }

      long grown = Heap.usedAfterGc() - afterReads;
      System.out.printf("spaces: %d ListFeeds of new spaces grew the heap after GC by %.1f MiB and stored nothing;"
          + " %d appends to new spaces stored %d space rows and grew it by %.1f MiB (%d bytes per space)%n", spaces,
          Heap.mib(afterReads - heapBefore), spaces, spaces, Heap.mib(grown), grown / spaces);
      assertEquals(spaces + 1, Census.of(t.file).rows("spaces"));
      io.grpc.StatusRuntimeException oneMore = org.junit.jupiter.api.Assertions.assertThrows(
          io.grpc.StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("one-more", Wire.block(feed, "a", 0))));
      assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, oneMore.getStatus().getCode());
      assertEquals(spaces + 1, Census.of(t.file).rows("spaces"));
      assertTrue(afterReads - heapBefore < grown / 10, "reads kept " + (afterReads - heapBefore) + " bytes");
    }
  }

  /**
   * ListFeeds of a space with 120,000 feeds (120 appends of 1,000 new feeds, all within the
   * limits) comes in pages of query-limit feeds, each far below the 4 MiB that gRPC clients accept
   * by default, and the pages together list every feed once.
   */
  @Test
  void listFeedsOfAHugeSpaceComesInSmallPages() {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start()) {
      java.util.Set<String> created = new java.util.HashSet<>();
      for (int append = 0; append < 120; append++) {
        List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          FeedId feed = TestBlocks.feedId();
          created.add(feed.value());
          blocks.add(Wire.block(feed, "a", 0));
        }
        t.blocking().append(Wire.append("s", blocks));
      }

      java.util.Set<String> listed = new java.util.HashSet<>();
      int pages = 0;
      int largest = 0;
      ListFeedsRequest.Builder request = ListFeedsRequest.newBuilder().setSpaceId("s");
      dev.feedstore.proto.v1.ListFeedsResponse page;
      do {
        page = t.blocking().listFeeds(request.build()); // gRPC's default inbound limit of 4 MiB
        pages++;
        largest = Math.max(largest, page.getSerializedSize());
        page.getFeedsList().forEach(feed -> listed.add(feed.getFeedId()));
        request.setAfterFeedId(page.getFeeds(page.getFeedsCount() - 1).getFeedId());
      } while (page.getHasMore());

      System.out.printf("ListFeeds of a space with 120000 feeds: %d pages, the largest %.1f KiB%n", pages,
          largest / 1024.0);
      assertEquals(created, listed);
      assertEquals(120, pages);
      assertTrue(largest < 1 << 20, largest + " bytes in one page");
    }
  }
}
