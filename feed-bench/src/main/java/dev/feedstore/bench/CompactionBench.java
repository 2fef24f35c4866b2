package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.CompactResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Compaction: a space of {@code blocks} blocks is compacted whole (one Compact call, which the
 * server runs in transactions of 1,000 blocks) while one client appends a block to the same space
 * every {@value #PROBE_INTERVAL_MICROS} us and a Watch follows it live. Reports the compaction rate,
 * and the append call and Watch latencies during the compaction beside the same probes just before
 * it, on the same server and file.
 */
final class CompactionBench {
  private static final String SPACE = "compaction";
  private static final int PROBE_INTERVAL_MICROS = 2_000;
  private static final int FILL_BATCH = 1_000;

  private final BenchOptions options;
  private final ResultTable table;
  private final int blocks;

  CompactionBench(BenchOptions options, ResultTable table, int blocks) {
    this.options = options;
    this.table = table;
    this.blocks = blocks;
  }

  void run() throws Exception {
    BenchServer server = options.server().reopen(options.dir().resolve("compaction.db"));
    ManagedChannel channel = server.channel();
    Context.CancellableContext watching = Context.current().withCancellation();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      FeedId feed = FeedId.generate();
      fill(stub, feed);
      long filled = stub.query(QueryRequest.newBuilder().setSpaceId(SPACE).build()).getMaxPosition();
      Progress.say("compaction: %d blocks stored", filled);

      ConcurrentHashMap<Integer, Long> seenAt = new ConcurrentHashMap<>();
      watching.run(() -> FeedSyncGrpc.newStub(channel).watch(WatchRequest.newBuilder().setSpaceId(SPACE)
          .setCursor(filled).build(), new StreamObserver<WatchEvent>() {
            @Override
            public void onNext(WatchEvent event) {
              long now = System.nanoTime();
              for (Block block : event.getBlocks().getBlocksList()) {
                if (block.getData().size() >= 4 && block.getActorId().equals("probe")) {
                  seenAt.put(ByteBuffer.wrap(block.getData().toByteArray()).getInt(), now);
                }
              }
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {}
          }));

      Probes probes = new Probes(stub, feed);
      // Before: as many probes as the compaction will roughly take, at least two seconds of them.
      Histogram appendBefore = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
      Histogram watchBefore = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
      probes.runUntil(System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(2, blocks / 200_000)), appendBefore,
          seenAt, watchBefore, () -> false);

      Histogram appendDuring = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
      Histogram watchDuring = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
      long start = System.nanoTime();
      CompletableFuture<CompactResponse> compaction = CompletableFuture.supplyAsync(() -> FeedSyncGrpc
          .newBlockingStub(channel).compact(CompactRequest.newBuilder().setSpaceId(SPACE).setUpTo(filled).build()));
      probes.runUntil(Long.MAX_VALUE, appendDuring, seenAt, watchDuring, compaction::isDone);
      CompactResponse done = compaction.get();
      double seconds = (System.nanoTime() - start) / 1e9;

      double rate = done.getRemoved() / seconds;
      table.add("compaction.rate", rate, "blocks/s");
      table.add("compaction.append.p50", appendDuring.getValueAtPercentile(50) / 1000.0, "ms",
          appendBefore.getValueAtPercentile(50) / 1000.0, ResultTable.Target.NONE);
      table.add("compaction.append.p99", appendDuring.getValueAtPercentile(99) / 1000.0, "ms",
          appendBefore.getValueAtPercentile(99) / 1000.0, ResultTable.Target.NONE);
      table.add("compaction.append.max", appendDuring.getMaxValue() / 1000.0, "ms",
          appendBefore.getMaxValue() / 1000.0, ResultTable.Target.NONE);
      table.add("compaction.watch.p50", watchDuring.getValueAtPercentile(50) / 1000.0, "ms",
          watchBefore.getValueAtPercentile(50) / 1000.0, ResultTable.Target.NONE);
      table.add("compaction.watch.p99", watchDuring.getValueAtPercentile(99) / 1000.0, "ms",
          watchBefore.getValueAtPercentile(99) / 1000.0, ResultTable.Target.NONE);
      table.note("compaction.*: one Compact of a space of " + blocks + " 256-byte blocks (" + done.getRemoved()
          + " removed in " + String.format("%.1f", seconds) + " s); meanwhile one client appends a block to the same"
          + " space every " + PROBE_INTERVAL_MICROS + " us (" + appendDuring.getTotalCount() + " appends) and a"
          + " Watch follows it; baseline = the same probes on the same server and file just before ("
          + appendBefore.getTotalCount() + " appends); watch = from the append's call to the block's arrival");
      Progress.say("compaction: %d blocks in %.1f s (%.0f blocks/s); append p99 %.2f ms during, %.2f ms before;"
              + " watch p99 %.2f ms during, %.2f ms before", done.getRemoved(), seconds, rate,
          appendDuring.getValueAtPercentile(99) / 1000.0, appendBefore.getValueAtPercentile(99) / 1000.0,
          watchDuring.getValueAtPercentile(99) / 1000.0, watchBefore.getValueAtPercentile(99) / 1000.0);
    } finally {
      watching.cancel(null);
      BenchServer.shutdown(channel);
    }
  }

  private void fill(FeedSyncGrpc.FeedSyncBlockingStub stub, FeedId feed) {
    ByteString data = ByteString.copyFrom(new byte[AppendWorkload.DATA_BYTES]);
    for (int first = 0; first < blocks; first += FILL_BATCH) {
      AppendRequest.Builder request = AppendRequest.newBuilder().setSpaceId(SPACE);
      for (int i = first; i < Math.min(blocks, first + FILL_BATCH); i++) {
        Block.Builder block = Block.newBuilder().setFeedId(feed.value()).setActorId("fill").setSequence(i)
            .setTimestamp(1).setData(data);
        if (i > 0) {
          block.setPrevActorId("fill").setPrevSequence(i - 1);
        }
        request.addBlocks(block);
      }
      stub.append(request.build());
    }
  }

  /** One client's paced appends of numbered blocks, and when each was sent. */
  private static final class Probes {
    private final FeedSyncGrpc.FeedSyncBlockingStub stub;
    private final FeedId feed;
    private final List<Long> sentAt = new ArrayList<>();
    private int next;

    Probes(FeedSyncGrpc.FeedSyncBlockingStub stub, FeedId feed) {
      this.stub = stub;
      this.feed = feed;
    }

    /**
     * Appends one block per interval until {@code deadline} or {@code stop}; records the call
     * latencies, then waits for the Watch to deliver each of them and records those latencies.
     */
    void runUntil(long deadline, Histogram calls, ConcurrentHashMap<Integer, Long> seenAt, Histogram watch,
        java.util.function.BooleanSupplier stop) {
      int first = next;
      long due = System.nanoTime();
      while (System.nanoTime() < deadline && !stop.getAsBoolean()) {
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        byte[] data = new byte[AppendWorkload.DATA_BYTES];
        ByteBuffer.wrap(data).putInt(next);
        Block.Builder block = Block.newBuilder().setFeedId(feed.value()).setActorId("probe").setSequence(next)
            .setTimestamp(1).setData(ByteString.copyFrom(data));
        if (next > 0) {
          block.setPrevActorId("probe").setPrevSequence(next - 1);
        }
        long sent = System.nanoTime();
        stub.append(AppendRequest.newBuilder().setSpaceId(SPACE).addBlocks(block).build());
        calls.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - sent));
        sentAt.add(sent);
        next++;
        due += TimeUnit.MICROSECONDS.toNanos(PROBE_INTERVAL_MICROS);
      }
      awaitWatched(seenAt, watch, first);
    }

    private void awaitWatched(ConcurrentHashMap<Integer, Long> seenAt, Histogram watch, int first) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      for (int i = first; i < next; i++) {
        Long seen;
        while ((seen = seenAt.get(i)) == null) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("the Watch did not deliver probe " + i + " within 30 s");
          }
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        watch.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(seen - sentAt.get(i))));
      }
    }
  }
}
