package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.RPC_THREADS;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.WATCH_THREADS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of Watch streams opened and dropped over loopback, every way a client drops them:
 * cancelled at once (racing the server's start), cancelled once live, connection reset while
 * streams read history, and connection reset under streams whose reader stopped reading. After
 * each wave every stream is released ({@code openWatches() == 0}), a good append is served, and at
 * the end the used heap after GC and the live threads are back where they were, and closing the
 * server does not wait for calls left in flight. {@code -Dfeed.hostile.heavy=true} runs ten times
 * the waves.
 */
class WatchChurnTest {
  private static final int STREAMS = WATCHES_PER_CONNECTION.defaultValue();
  private static final int WAVES = Boolean.getBoolean("feed.hostile.heavy") ? 10 : 1;
  private static final int HISTORY = 300;

  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  long appended;

  @Test
  void droppedWatchStreamsLeaveNoStreamThreadOrHeapBehind() {
    TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    try {
      appendBlocks(t, HISTORY);
      wave(t, STREAMS / 2); // warms up classes, pools and event loops before measuring
      long heapBefore = Heap.usedAfterGc();
      int threadsBefore = serverThreads();

      for (int i = 0; i < WAVES; i++) {
        wave(t, STREAMS);
      }

      long heapAfter = Heap.usedAfterGc();
      int threadsAfter = serverThreads();
      long watchThreads = Thread.getAllStackTraces().keySet().stream()
          .filter(thread -> thread.getName().startsWith("feed-watch")).count();
      System.out.printf("watch churn: %d streams opened and dropped in %d wave(s) of 4 x %d; used heap after GC"
              + " %.1f MiB -> %.1f MiB; live threads (but the clients' cached executor) %d -> %d (feed-watch threads: %d)%n",
          WAVES * 4 * STREAMS, WAVES, STREAMS, Heap.mib(heapBefore), Heap.mib(heapAfter), threadsBefore,
          threadsAfter, watchThreads);
      assertTrue(heapAfter - heapBefore < 16 << 20, "heap grew by " + (heapAfter - heapBefore) + " bytes");
      // Pools start threads on demand (request handlers, the store's checkpointer), so a few may
      // appear; a thread per stream would show as hundreds.
      int poolThreads = RPC_THREADS.defaultValue() + WATCH_THREADS.defaultValue() + 2;
      assertTrue(threadsAfter - threadsBefore <= poolThreads,
          threadsBefore + " threads before, " + threadsAfter + " after " + WAVES * 4 * STREAMS + " streams");
      assertTrue(watchThreads <= WATCH_THREADS.defaultValue(), watchThreads + " feed-watch threads");
    } finally {
      long closing = System.nanoTime();
      t.close();
      long millis = (System.nanoTime() - closing) / 1_000_000;
      assertTrue(millis < 5_000, "closing waited " + millis + " ms: a call was left in flight");
    }
  }

  /** Opens and drops {@code count} streams in each of the four ways, then checks the server. */
  private void wave(TestServer t, int count) {
    WatchRequest live = WatchRequest.newBuilder().setSpaceId("s").setCursor(HISTORY).build();
    WatchRequest history = WatchRequest.newBuilder().setSpaceId("s").build();

    WatchCrowd.open(t.channel, live, count).cancelAll();
    released(t, "streams cancelled as they opened");

    WatchCrowd caughtUp = WatchCrowd.open(t.channel, live, count);
    caughtUp.awaitAnswered();
    assertEquals(count, t.server.openWatches());
    caughtUp.cancelAll();
    released(t, "streams cancelled once live");

    try (TcpRelay relay = new TcpRelay(t.server.port())) {
      ManagedChannel channel = channel(relay);
      WatchCrowd reading = WatchCrowd.open(channel, history, count);
      reading.awaitAnswered();
      relay.cutAll();
      released(t, "streams whose connection was reset");
      channel.shutdownNow();

      ManagedChannel stalledChannel = channel(relay);
      List<ClientCall<WatchRequest, WatchEvent>> stalled = WatchCrowd.openStalled(stalledChannel, history, count);
      Await.until("every stalled stream is open", Duration.ofSeconds(60), () -> t.server.openWatches() == stalled.size());
      relay.cutAll();
      released(t, "stalled streams whose connection was reset");
      WatchCrowd.drop(stalled);
      stalledChannel.shutdownNow();
    }
  }

  private void released(TestServer t, String what) {
    Await.until(what + " are released", Duration.ofSeconds(60), () -> t.server.openWatches() == 0);
    assertEquals(List.of(HISTORY + appended + 1), t.blocking().append(Wire.append("s",
        Wire.block(feed, "after", appended))).getPositionsList(), "the server serves after " + what);
    appended++;
  }

  /**
   * Live threads, but for the client channels' executor ({@code grpc-default-executor}), a cached
   * pool whose idle threads end after a minute. (The server runs its calls on its own pools.)
   */
  private static int serverThreads() {
    return (int) Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> !thread.getName().startsWith("grpc-default-executor")).count();
  }

  private static ManagedChannel channel(TcpRelay relay) {
    return Grpc.newChannelBuilderForAddress("127.0.0.1", relay.port(), InsecureChannelCredentials.create())
        .maxInboundMessageSize(64 << 20).build();
  }

  private void appendBlocks(TestServer t, int count) {
    ByteString data = ByteString.copyFrom(new byte[1024]);
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      blocks.add(Wire.block(feed, "a", i).toBuilder().setData(data).build());
    }
    t.blocking().withDeadlineAfter(30, TimeUnit.SECONDS).append(Wire.append("s", blocks));
  }
}
