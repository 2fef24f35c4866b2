package dev.feedstore.bench;

import dev.feedstore.client.FeedUpdate;
import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import io.grpc.ManagedChannel;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Live latency: replica A appends one block every {@code liveIntervalMicros} to a feed that
 * replica B replicates; the time from the moment A's append was due to the moment B's listener is
 * told about the block (it is then committed in B's file). Both replicas run in this JVM with
 * their own files and connections, with their shipped settings; the authority runs in its own.
 */
final class LiveLatencyBench {
  private static final SpaceId SPACE = SpaceId.of("live");
  private final BenchOptions options;
  private final ResultTable table;

  LiveLatencyBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    int warmup = options.liveWarmupBlocks();
    int total = warmup + options.liveBlocks();
    long interval = TimeUnit.MICROSECONDS.toNanos(options.liveIntervalMicros());
    AtomicLongArray due = new AtomicLongArray(total);
    AtomicLongArray appended = new AtomicLongArray(total);
    Histogram latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    Histogram local = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    Histogram sync = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    boolean[] seen = new boolean[total];
    CountDownLatch received = new CountDownLatch(total);
    {
      BenchServer server = options.server().reopen(options.dir().resolve("live-authority.db"));
      ManagedChannel channelA = server.channel();
      ManagedChannel channelB = server.channel();
      try (Replica a = Replica.open(options.dir().resolve("live-a.db"), ActorId.of("alice"));
          Replica b = Replica.open(options.dir().resolve("live-b.db"), ActorId.of("bob"))) {
        FeedId feed = a.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
        b.replicate(SPACE, feed, Replication.fullHistory());
        Registration registration = b.listen(SPACE, Scope.feeds(Set.of(feed)), update -> {
          long now = System.nanoTime();
          for (Block block : changedBlocks(update, feed)) {
            if (!block.isPositioned()) {
              continue;
            }
            int index = ByteBuffer.wrap(block.data().toByteArray()).getInt();
            if (index < 0 || index >= total || seen[index]) {
              continue;
            }
            seen[index] = true;
            if (index >= warmup) {
              latency.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - due.get(index))));
              long returned = appended.get(index);
              if (returned != 0) {
                local.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(returned - due.get(index))));
                sync.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(now - returned)));
              }
            }
            received.countDown();
          }
        });
        try (SyncSession sessionA = AuthorityChannel.connect(a, channelA); SyncSession sessionB = AuthorityChannel.connect(b, channelB)) {
          if (!sessionA.awaitSynced(Duration.ofSeconds(30)) || !sessionB.awaitSynced(Duration.ofSeconds(30))) {
            throw new IllegalStateException("the replicas did not sync: " + sessionA.status() + ", " + sessionB.status());
          }
          byte[] data = new byte[AppendWorkload.DATA_BYTES];
          long serverCpu = server.cpuNanos();
          long clientCpu = Heap.processCpuNanos();
          long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
          for (int i = 0; i < total; i++) {
            long at = start + i * interval;
            due.set(i, at);
            long wait;
            while ((wait = at - System.nanoTime()) > 0) {
              LockSupport.parkNanos(wait);
            }
            ByteBuffer.wrap(data).putInt(i);
            a.append(SPACE, feed, BlockData.copyOf(data));
            appended.set(i, System.nanoTime());
          }
          long sent = System.nanoTime();
          double sendSeconds = (sent - start) / 1e9;
          if (!received.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("replica B saw " + (total - received.getCount()) + " of " + total
                + " blocks within two minutes of the last append");
          }
          double seconds = (System.nanoTime() - start) / 1e9;
          Progress.say("live: %d blocks appended in %.1f s (due %.1f s); B saw the last %.1f ms after the last append;"
                  + " CPU: server %.2f cores, replicas' JVM %.2f cores",
              total, sendSeconds, total * interval / 1e9, (System.nanoTime() - sent) / 1e6,
              (server.cpuNanos() - serverCpu) / 1e9 / seconds, (Heap.processCpuNanos() - clientCpu) / 1e9 / seconds);
        } finally {
          registration.close();
        }
      } finally {
        BenchServer.shutdown(channelA);
        BenchServer.shutdown(channelB);
      }
    }
    ResultTable.Target p99 = ResultTable.Target.atMost(5, "ms");
    table.add("live.p50", latency.getValueAtPercentile(50) / 1000.0, "ms");
    table.add("live.p99", latency.getValueAtPercentile(99) / 1000.0, "ms", p99);
    table.add("live.p99.9", latency.getValueAtPercentile(99.9) / 1000.0, "ms");
    table.add("live.max", latency.getMaxValue() / 1000.0, "ms");
    table.note("live.*: replica A appends one 256-byte block every " + options.liveIntervalMicros() + " us ("
        + options.liveBlocks() + " measured after " + warmup + " warm-up blocks); latency from when the append was"
        + " due to when replica B's listener is told (block committed in B's file); both replicas sync over loopback");
    Progress.say("live: p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms; of which A's local append (due to"
            + " returned) p50 %.2f p99 %.2f ms, and sync to B's listener p50 %.2f p99 %.2f ms",
        latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(99) / 1000.0,
        latency.getValueAtPercentile(99.9) / 1000.0, latency.getMaxValue() / 1000.0,
        local.getValueAtPercentile(50) / 1000.0, local.getValueAtPercentile(99) / 1000.0,
        sync.getValueAtPercentile(50) / 1000.0, sync.getValueAtPercentile(99) / 1000.0);
  }

  /** The blocks of {@code feed} an update tells about. */
  private static List<Block> changedBlocks(FeedUpdate update, FeedId feed) {
    return update.changes().getOrDefault(feed, List.of());
  }
}
