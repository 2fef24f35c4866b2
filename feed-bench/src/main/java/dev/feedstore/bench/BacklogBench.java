package dev.feedstore.bench;

import com.google.protobuf.ByteString;
import dev.feedstore.client.ConnectOptions;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Backlog: a replica that wrote blocks offline connects and pushes them until its session is
 * SYNCED, small blocks (256 bytes) and large ones (100 KiB, a backlog that no single request
 * carries). Each beside its baseline: a plain client appending the same blocks straight to the
 * server, in requests as large as the replica's (500 small blocks; 150 large ones, 15 MiB, under
 * the default 16 MiB message), which is the most the replica's push could do.
 */
final class BacklogBench {
  private static final int SMALL_BYTES = 256;
  private static final int LARGE_BYTES = 100 * 1024;
  private final BenchOptions options;
  private final ResultTable table;

  BacklogBench(BenchOptions options, ResultTable table) {
    this.options = options;
    this.table = table;
  }

  void run() throws Exception {
    int blocks = options.backlogBlocks();
    measure("backlog.small", blocks, SMALL_BYTES, 500);
    measure("backlog.large", Math.max(1, blocks / 100), LARGE_BYTES, 150);
    table.note("backlog.*: a replica pushes blocks it wrote offline (" + blocks + " of " + SMALL_BYTES + " bytes; "
        + Math.max(1, blocks / 100) + " of " + LARGE_BYTES + " bytes) until SYNCED; baseline: the same blocks"
        + " appended by a plain client in requests as large as the replica's");
  }

  private void measure(String name, int count, int size, int rawBatch) throws Exception {
    double raw = rawAppendSeconds(options.server().reopen(options.dir().resolve(name + "-raw.db")), count, size,
        rawBatch);
    BenchServer server = options.server().reopen(options.dir().resolve(name + "-authority.db"));
    SpaceId space = SpaceId.of(AppendWorkload.SPACE);
    try (Replica replica = Replica.open(options.dir().resolve(name + "-replica.db"), ActorId.of("offline"))) {
      FeedId feed = replica.createFeed(space, Optional.empty(), Replication.fullHistory());
      BlockData data = BlockData.copyOf(new byte[size]);
      List<BlockData> batch = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        batch.add(data);
        if (batch.size() == 1000 || i == count - 1) {
          replica.append(space, feed, batch);
          batch.clear();
        }
      }
      long start = System.nanoTime();
      try (SyncSession session = replica.connect("127.0.0.1:" + server.port(), ConnectOptions.DEFAULTS)) {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        while (!session.awaitSynced(Duration.ofSeconds(10))) {
          Progress.say("%s: %s", name, session.status());
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(name + " did not sync in 30 minutes: " + session.status());
          }
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      if (replica.read(space, feed).stream().anyMatch(b -> !b.isPositioned())) {
        throw new IllegalStateException(name + ": synced with unpositioned blocks");
      }
      double mib = (double) count * size / (1 << 20);
      Progress.say("%s: %d blocks of %d bytes pushed in %.1f s (%.1f MiB/s); a plain client appended them in %.1f s",
          name, count, size, seconds, mib / seconds, raw);
      table.add(name + ".rate", count / seconds, "blocks/s", count / raw, ResultTable.Target.atLeastRatio(0.5));
      table.add(name + ".mib_per_s", mib / seconds, "MiB/s", mib / raw, ResultTable.Target.NONE);
    }
  }

  /** Seconds a plain client takes to append {@code count} blocks of {@code size} bytes, {@code batch} a request. */
  private static double rawAppendSeconds(BenchServer server, int count, int size, int batch) {
    ManagedChannel channel = server.channel();
    try {
      FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
      String feed = FeedId.generate().value();
      ByteString data = ByteString.copyFrom(new byte[size]);
      long start = System.nanoTime();
      for (int sent = 0; sent < count; ) {
        AppendRequest.Builder request = AppendRequest.newBuilder().setRequestId("backlog-" + sent)
            .setSpaceId(AppendWorkload.SPACE);
        int n = Math.min(batch, count - sent);
        for (int i = 0; i < n; i++) {
          request.addBlocks(Block.newBuilder().setFeedId(feed).setActorId("plain").setSequence(sent + i)
              .setTimestamp(1).setData(data));
        }
        stub.append(request.build());
        sent += n;
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      BenchServer.shutdown(channel);
    }
  }
}
