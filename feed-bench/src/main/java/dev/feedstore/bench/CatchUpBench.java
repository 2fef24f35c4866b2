package dev.feedstore.bench;

import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.time.Duration;

/**
 * Catch-up: the authority holds {@code catchupBlocks} blocks (256 bytes, 100 feeds of one
 * namespace); a fresh replica that replicates the namespace connects and syncs until its session
 * says SYNCED. Blocks per second from connect to synced, and this JVM's heap while it ran (the
 * server runs in its own JVM).
 */
final class CatchUpBench {
  static final String NAMESPACE = "data";
  private final BenchOptions options;
  private final ResultTable table;

  CatchUpBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    int total = options.catchupBlocks();
    {
      BenchServer server = options.server().reopen(options.dir().resolve("catchup-authority.db"));
      populate(server, total);
      ManagedChannel channel = server.channel();
      try (Replica replica = Replica.builder(options.dir().resolve("catchup-replica.db"))
          .actorId(ActorId.of("reader")).build()) {
        Heap.usedAfterGc();
        Heap.resetPeaks();
        long serverCpu = server.cpuNanos();
        long clientCpu = Heap.processCpuNanos();
        long start = System.nanoTime();
        SpaceId space = SpaceId.of(AppendWorkload.SPACE);
        replica.replicateNamespace(space, Namespace.of(NAMESPACE), true);
        try (SyncSession session = AuthorityChannel.connect(replica, channel)) {
          long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
          while (!session.awaitSynced(Duration.ofSeconds(10))) {
            Progress.say("catch-up: %s", session.status());
            if (System.nanoTime() > deadline) {
              throw new IllegalStateException("catch-up did not finish in 30 minutes: " + session.status());
            }
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double clientCpuPerBlock = (Heap.processCpuNanos() - clientCpu) / 1000.0 / total;
        double serverCpuPerBlock = (server.cpuNanos() - serverCpu) / 1000.0 / total;
        long held = replica.feeds(space).stream().mapToLong(FeedInfo::blockCount).sum();
        if (held != total) {
          throw new IllegalStateException("the replica holds " + held + " blocks after catch-up, expected " + total);
        }
        double rate = total / seconds;
        Progress.say("catch-up: %d blocks in %.1f s, %.0f blocks/s (CPU per block: replica JVM %.1f us, server %.1f us)",
            total, seconds, rate, clientCpuPerBlock, serverCpuPerBlock);
        table.add("catchup.rate", rate, "blocks/s", ResultTable.Target.atLeast(100_000, "blocks/s"));
        table.add("catchup.seconds", seconds, "s");
        table.add("catchup.server_cpu_per_block", serverCpuPerBlock, "us");
        table.add("catchup.replica_cpu_per_block", clientCpuPerBlock, "us");
        table.add("catchup.peak_heap_after_gc", Heap.mib(Heap.peakAfterGc()), "MiB");
        table.add("catchup.peak_heap_used", Heap.mib(Heap.peakUsed()), "MiB");
        table.note("catchup.*: a fresh replica pulls " + total + " blocks (256 bytes, 100 feeds) over loopback until"
            + " its session is SYNCED; heap of the replica's JVM (max heap " + Math.round(Heap.mib(Heap.max()))
            + " MiB): peak after any GC, and peak used with garbage; CPU per block: the server's process, and the JVM of the"
            + " replica (and of the benchmark, which does little else meanwhile)");
      } finally {
        BenchServer.shutdown(channel);
      }
    }
  }

  private void populate(BenchServer server, int total) {
    ManagedChannel channel = server.channel();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      int batch = 1000;
      AppendWorkload workload = new AppendWorkload(AppendWorkload.Shape.ONE_FEED, batch, 7);
      long start = System.nanoTime();
      int sent = 0;
      while (sent < total) {
        var request = workload.nextRequest().toBuilder().setNamespace(NAMESPACE);
        int n = Math.min(batch, total - sent);
        while (request.getBlocksCount() > n) {
          request.removeBlocks(request.getBlocksCount() - 1);
        }
        stub.append(request.build());
        sent += n;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Progress.say("catch-up: the authority holds %d blocks (appended in %.1f s, %.0f blocks/s at batch %d)",
          total, seconds, total / seconds, batch);
    } finally {
      BenchServer.shutdown(channel);
    }
  }
}
