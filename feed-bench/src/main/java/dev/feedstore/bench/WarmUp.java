package dev.feedstore.bench;

import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.time.Duration;

/**
 * Runs the paths the cases measure before the first case, so that the JIT has compiled them in the
 * server's JVM and in this one (on this machine C2 keeps a core busy for the first tens of thousands
 * of requests): appends of both shapes at batches of 1, 10 and 100, then a replica that catches up
 * and follows live blocks with a listener while appends go on. What the cases measure is then a
 * server that has been up for a while, not its first seconds.
 */
final class WarmUp {
  private WarmUp() {}

  static void run(BenchOptions options, double seconds) throws Exception {
    long start = System.nanoTime();
    ManagedChannel channel = options.server().channel();
    try (Replica replica = Replica.builder(options.dir().resolve("warm-up-replica.db"))
        .actorId(ActorId.of("warm-up")).build()) {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      SpaceId space = SpaceId.of(AppendWorkload.SPACE);
      Namespace namespace = Namespace.of(CatchUpBench.NAMESPACE);
      long appendsUntil = start + (long) (seconds * 0.6e9);
      for (int round = 0; System.nanoTime() < appendsUntil; round++) {
        AppendWorkload.Shape shape = AppendWorkload.Shape.values()[round % 2];
        int batch = new int[] {1, 10, 100}[(round / 2) % 3];
        append(stub, new AppendWorkload(shape, batch, 1000 + round), Math.min(appendsUntil, System.nanoTime() + 500_000_000L));
      }
      replica.replicateNamespace(space, namespace, true);
      Registration listening = replica.listen(space, Scope.namespace(namespace), update -> update.changes());
      try (SyncSession session = AuthorityChannel.connect(replica, channel)) {
        session.awaitSynced(Duration.ofSeconds(120));
        long end = start + (long) (seconds * 1e9);
        append(stub, new AppendWorkload(AppendWorkload.Shape.ONE_FEED, 10, 7), end);
        session.awaitSynced(Duration.ofSeconds(60));
      } finally {
        listening.close();
      }
    } finally {
      BenchServer.shutdown(channel);
    }
    Progress.say("warm-up: %.1f s", (System.nanoTime() - start) / 1e9);
  }

  private static void append(FeedSyncGrpc.FeedSyncBlockingStub stub, AppendWorkload workload, long until) {
    while (System.nanoTime() < until) {
      stub.append(workload.nextRequest().toBuilder().setNamespace(CatchUpBench.NAMESPACE).build());
    }
  }
}
