package dev.feedstore.bench;

import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_APPEND_BYTES_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_REQUESTS_PER_SECOND;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.WireHeaders;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What one principal flooding the server does to another's latency under the per-principal limits:
 * a server in this JVM with two tokens, where bob sends paced Queries (one every 4 ms, half his
 * {@code principal-requests-per-second}) and alice, from two threads, appends 1 KiB blocks as fast
 * as she can, far over her {@code principal-append-bytes-per-second}. Bob's Query p99 while she
 * floods is compared with his p99 alone, measured just before; the target is at most twice.
 * Not thread-safe.
 */
final class FairnessBench {
  private static final String SPACE = "fairness";
  private static final int REQUESTS_PER_SECOND = 500;
  private static final int APPEND_BYTES_PER_SECOND = 64 << 10;
  private static final long PACE_NANOS = 4_000_000;

  private final ResultTable table;
  private final Path dir;
  private final int queries;

  /**
   * @param queries how many of bob's Queries are timed alone, and as many again while alice floods
   *     (after as many again to warm up)
   */
  FairnessBench(ResultTable table, Path dir, int queries) {
    this.table = table;
    this.dir = dir;
    this.queries = queries;
  }

  void run() throws Exception {
    Path tokens = Files.writeString(dir.resolve("fairness-tokens"), AccessTokens.sha256("alice") + " write *\n"
        + AccessTokens.sha256("bob") + " write *\n");
    ServerSettings settings = ServerSettings.newBuilder().set(PRINCIPAL_REQUESTS_PER_SECOND, REQUESTS_PER_SECOND)
        .set(PRINCIPAL_APPEND_BYTES_PER_SECOND, APPEND_BYTES_PER_SECOND).build();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("fairness.db"), SqliteSettings.DEFAULTS)) {
      FeedServer server = FeedServer.newBuilder(store).settings(settings).accessTokens(AccessTokens.read(tokens))
          .address("127.0.0.1", 0).build().start();
      try {
        measure(server.port());
      } finally {
        server.close();
      }
    }
  }

  private void measure(int port) throws InterruptedException {
    FeedId feed = FeedId.generate();
    ManagedChannel channel = channelTo(port);
    try {
      FeedSyncGrpc.FeedSyncBlockingStub bob = stub(channel, "bob");
      for (int i = 0; i < 10; i++) {
        bob.append(append(feed, "bob", i * 100L, 100, ByteString.EMPTY));
      }
      time(bob, queries); // warm-up: as many again, so that the first figure is not the compiler's
      long alone = p99(time(bob, queries));

      ByteString kib = ByteString.copyFrom(new byte[1024]);
      AtomicBoolean flooding = new AtomicBoolean(true);
      AtomicLong admitted = new AtomicLong();
      AtomicLong refused = new AtomicLong();
      List<Thread> flood = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String actor = "alice-" + i;
        flood.add(new Thread(() -> {
          FeedSyncGrpc.FeedSyncBlockingStub alice = stub(channel, "alice");
          for (long n = 0; flooding.get(); n++) {
            try {
              alice.append(append(feed, actor, n, 1, kib));
              admitted.incrementAndGet();
            } catch (StatusRuntimeException e) {
              refused.incrementAndGet();
            }
          }
        }, "fairness-flood-" + i));
      }
      long floodStarted = System.nanoTime();
      flood.forEach(Thread::start);
      long flooded;
      try {
        flooded = p99(time(bob, queries));
      } finally {
        flooding.set(false);
        for (Thread thread : flood) {
          thread.join();
        }
      }
      double floodSeconds = (System.nanoTime() - floodStarted) / 1e9;
      Progress.say("fairness: bob's Query p99 %.2f ms alone, %.2f ms while alice floods (%d appends admitted,"
          + " %d refused in %.1f s)", alone / 1e6, flooded / 1e6, admitted.get(), refused.get(), floodSeconds);
      table.add("fairness.query.p99.alone", alone / 1e6, "ms");
      table.add("fairness.query.p99.flooded", flooded / 1e6, "ms", alone / 1e6, ResultTable.Target.atMostRatio(2));
      table.add("fairness.flood.refused", refused.get() / floodSeconds, "calls/s");
      table.note("fairness.*: server in this JVM, principal-requests-per-second " + REQUESTS_PER_SECOND
          + ", principal-append-bytes-per-second " + APPEND_BYTES_PER_SECOND + "; bob: " + queries
          + " Queries of 100 blocks paced every 4 ms; alice: 2 threads appending 1 KiB blocks without pause ("
          + admitted.get() + " admitted, " + refused.get() + " refused); baseline of .flooded = bob's p99 alone");
    } finally {
      BenchServer.shutdown(channel);
    }
  }

  private static ManagedChannel channelTo(int port) {
    return io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext()
        .build();
  }

  private static FeedSyncGrpc.FeedSyncBlockingStub stub(ManagedChannel channel, String token) {
    return FeedSyncGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer(token)));
  }

  private static AppendRequest append(FeedId feed, String actor, long first, int count, ByteString data) {
    AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE).setRequestId(actor + "-" + first);
    for (int i = 0; i < count; i++) {
      long sequence = first + i;
      Block.Builder block = Block.newBuilder().setFeedId(feed.toString()).setActorId(actor).setSequence(sequence)
          .setTimestamp(System.currentTimeMillis()).setData(data);
      if (sequence > 0) {
        block.setPrevActorId(actor).setPrevSequence(sequence - 1);
      }
      request.addBlocks(block);
    }
    return request.build();
  }

  /** Bob's Queries, one every {@link #PACE_NANOS} (within his limit), each timed. */
  private static long[] time(FeedSyncGrpc.FeedSyncBlockingStub stub, int count) {
    long[] nanos = new long[count];
    long next = System.nanoTime();
    for (int i = 0; i < count; i++) {
      next += PACE_NANOS;
      LockSupport.parkNanos(next - System.nanoTime()); // pacing the load, not waiting for a condition
      long started = System.nanoTime();
      stub.query(QueryRequest.newBuilder().setSpaceId(SPACE).setCursor(i % 900).setLimit(100).build());
      nanos[i] = System.nanoTime() - started;
    }
    return nanos;
  }

  private static long p99(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.ceil(sorted.length * 0.99) - 1];
  }
}
