package dev.feedstore.client;

import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.HeldCalls;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose cursor fell below a compaction on the authority: it keeps every block it holds,
 * reports the history it will not get ({@link SyncStatus#historyUnavailable()}), syncs on from the
 * floor (live included) and pushes what it wrote offline, positioned above the floor. Real servers
 * over loopback, real SQLite files; the compactions that overtake a replica in the middle of a
 * catch-up or of a live stream are made to happen there by holding the server back ({@link
 * HeldCalls}), never by timing.
 */
class CompactedHistoryTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void aReplicaBehindTheFloorKeepsWhatItHoldsReportsTheGapAndSyncsOnFromTheFloor() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      Replica bob = replicas.open("bob");
      FeedId feed = bothSynced(authority.address(), replicas, alice, bob, "early");
      assertEquals(3, bob.read(SPACE, feed).size());

      // While bob is away: alice appends more, and the authority compacts past bob's cursor.
      replicas.append(alice, SPACE, feed, "later", 5);
      sync(alice, authority.address());
      assertEquals(6, compact(authority::newChannel, 6));
      replicas.append(bob, SPACE, feed, "offline", 2);

      SyncStatus status = sync(bob, authority.address());
      assertEquals(List.of(new HistoryGap(SPACE, 6)), status.historyUnavailable(), status.toString());
      assertEquals(List.of(), status.refusals());
      assertEquals(List.of("early-0@1", "early-1@2", "early-2@3", "later-3@7", "later-4@8", "offline-0@9",
          "offline-1@10"), placed(bob.read(SPACE, feed)), "bob keeps what it held, pulls above the floor, pushes above it");
      assertEquals(List.of("later-3@7", "later-4@8", "offline-0@9", "offline-1@10"), placed(authority.blocks(SPACE)));

      // The gap is kept in bob's file: a restarted bob still reports it.
      bob.close();
      Replica again = replicas.open("bob");
      try (SyncSession b = again.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        assertTrue(b.awaitSynced(WAIT), b.status().toString());
        assertEquals(List.of(new HistoryGap(SPACE, 6)), b.status().historyUnavailable());
      }
      // A policy that starts above the floor no longer needs the history below it.
      again.replicate(SPACE, feed, Replication.from(dev.feedstore.core.Position.of(7)));
      try (SyncSession b = again.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        assertTrue(b.awaitSynced(WAIT), b.status().toString());
        assertEquals(List.of(), b.status().historyUnavailable());
      }
    }
  }

  @Test
  void aCompactionDuringCatchUpIsReportedAndTheReplicaSyncsOnFromTheFloor() throws Exception {
    HeldCalls held = new HeldCalls();
    try (Authority authority = new Authority(dir, held, ServerSettings.DEFAULTS);
        Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "history", 300);
      sync(alice, authority.address());
      Replica bob = replicas.open("bob", 20, 500);
      bob.replicate(SPACE, feed, Replication.fullHistory());

      held.holdQueryAfter(2); // bob pulls two pages of twenty, then its next Query waits
      try (SyncSession b = bob.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        held.awaitQueryHeld(WAIT);
        assertEquals(250, compact(authority::newChannel, 250));
        held.release();
        assertTrue(b.awaitSynced(WAIT), b.status().toString());
        assertEquals(List.of(new HistoryGap(SPACE, 250)), b.status().historyUnavailable());
      }
      assertHoldsAPrefixAndEverythingAbove(bob.read(SPACE, feed), 250, 300);
    }
  }

  @Test
  void aCompactionThatOvertakesALiveStreamIsReportedAndTheReplicaSyncsOnFromTheFloor() throws Exception {
    HeldCalls held = new HeldCalls();
    // A tail of four blocks: a live stream that falls behind reads storage, where the compaction is.
    ServerSettings settings = ServerSettings.newBuilder().set(TAIL_BLOCKS, 4).build();
    try (Authority authority = new Authority(dir, held, settings); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice", 500, 5);
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "before", 10);
      sync(alice, authority.address());
      Replica bob = replicas.open("bob");
      bob.replicate(SPACE, feed, Replication.fullHistory());
      try (SyncSession b = bob.connect(authority.address(), ConnectOptions.DEFAULTS)) {
        assertTrue(b.awaitSynced(WAIT), b.status().toString());
        held.holdWatches(); // bob's live stream stays open, and the server falls behind it
        replicas.append(alice, SPACE, feed, "live", 30);
        sync(alice, authority.address());
        assertEquals(35, compact(authority::newChannel, 35));
        held.release();
        Await.until("bob reports the gap and pulls everything above the floor", WAIT,
            () -> !b.status().historyUnavailable().isEmpty() && b.status().isSynced()
                && bob.read(SPACE, feed).size() == 15);
        assertEquals(List.of(new HistoryGap(SPACE, 35)), b.status().historyUnavailable());

        // Live from the floor on: a block alice writes now reaches bob through the stream.
        replicas.append(alice, SPACE, feed, "after", 1);
        sync(alice, authority.address());
        Await.until("bob receives a new block live", WAIT, () -> bob.read(SPACE, feed).size() == 16);
      }
      assertHoldsAPrefixAndEverythingAbove(bob.read(SPACE, feed), 35, 41);
    }
  }

  @Test
  void aReplicaRestoredFromAnOldBackupAfterACompactionKeepsWhatItHasAndPushesItsOfflineBlocks() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      Replica bob = replicas.open("bob");
      FeedId feed = bothSynced(authority.address(), replicas, alice, bob, "alice");
      replicas.append(bob, SPACE, feed, "bob", 2);
      Path backup = replicas.backup(bob, "bob-old");

      // After the backup: bob pushes its two blocks (positions 4 and 5), alice writes three more,
      // and the authority compacts everything up to 6.
      bob = replicas.open("bob");
      sync(bob, authority.address());
      replicas.append(alice, SPACE, feed, "alice-later", 3);
      sync(alice, authority.address());
      assertEquals(6, compact(authority::newChannel, 6));

      // bob's disk is restored from the old backup: it holds three pulled blocks and its two
      // blocks unpositioned, and it writes one more offline.
      bob.close();
      bob = replicas.restore("bob", backup);
      replicas.append(bob, SPACE, feed, "bob-restored", 1);
      SyncStatus status = sync(bob, authority.address());
      assertEquals(List.of(new HistoryGap(SPACE, 6)), status.historyUnavailable(), status.toString());
      List<Block> held = bob.read(SPACE, feed);
      assertEquals(8, held.size(), placed(held).toString());
      assertTrue(held.stream().allMatch(Block::isPositioned), placed(held).toString());
      assertTrue(placed(held).containsAll(List.of("alice-0@1", "alice-1@2", "alice-2@3", "alice-later-1@7",
          "alice-later-2@8")), placed(held).toString());
      // The blocks it had pushed before were compacted with the rest; pushed again, they are positioned
      // above the floor, with the one it wrote after the restore.
      for (Block block : held) {
        String data = block.data().toStringUtf8();
        if (data.startsWith("bob")) {
          assertTrue(block.position().value() > 8, placed(held).toString());
        }
      }
      assertEquals(placed(held.subList(3, 8)), placed(authority.blocks(SPACE)));
    }
  }

  /** A real server over loopback whose calls {@link HeldCalls} may hold back. */
  private static final class Authority implements AutoCloseable {
    private final SqliteFeedStore store;
    private final FeedServer server;

    Authority(Path dir, HeldCalls held, ServerSettings settings) throws Exception {
      store = SqliteFeedStore.open(dir.resolve("authority.db"));
      server = FeedServer.newBuilder(store).settings(settings)
          .serverBuilder(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).intercept(held))
          .build().start();
    }

    String address() {
      return "127.0.0.1:" + server.port();
    }

    ManagedChannel newChannel() {
      return io.grpc.Grpc.newChannelBuilder(address(), io.grpc.InsecureChannelCredentials.create()).build();
    }

    @Override
    public void close() {
      server.close();
      store.close();
    }
  }

  /** Alice writes three blocks ("label-i") to a new feed, bob replicates it: both synced; returns the feed. */
  private static FeedId bothSynced(String target, Replicas replicas, Replica alice, Replica bob, String label)
      throws InterruptedException {
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(alice, SPACE, feed, label, 3);
    sync(alice, target);
    bob.replicate(SPACE, feed, Replication.fullHistory());
    sync(bob, target);
    return feed;
  }

  /** Connects until synced; returns the synced status. */
  private static SyncStatus sync(Replica replica, String target) throws InterruptedException {
    try (SyncSession session = replica.connect(target, ConnectOptions.DEFAULTS)) {
      assertTrue(session.awaitSynced(WAIT), session.status().toString());
      return session.status();
    }
  }

  /** Compacts the space up to {@code upTo}; returns the floor after it. */
  private static long compact(Supplier<ManagedChannel> channels, long upTo) {
    ManagedChannel channel = channels.get();
    try {
      return FeedSyncGrpc.newBlockingStub(channel).compact(CompactRequest.newBuilder()
          .setSpaceId(SPACE.value()).setUpTo(upTo).build()).getFloor();
    } finally {
      channel.shutdownNow();
    }
  }

  /** Each block as "data@position". */
  private static List<String> placed(List<Block> blocks) {
    return blocks.stream().map(b -> b.data().toStringUtf8() + "@" + b.position().value()).toList();
  }

  /**
   * The replica holds positions 1..k for some k (what it pulled before the compaction), nothing
   * else at or below {@code floor}, and every position above it up to {@code max}, once each.
   */
  private static void assertHoldsAPrefixAndEverythingAbove(List<Block> blocks, long floor, long max) {
    Set<Long> positions = new HashSet<>();
    for (Block block : blocks) {
      assertTrue(block.isPositioned() && positions.add(block.position().value()), placed(blocks).toString());
    }
    for (long p = floor + 1; p <= max; p++) {
      assertTrue(positions.contains(p), "missing position " + p + " in " + placed(blocks));
    }
    long below = positions.stream().filter(p -> p <= floor).count();
    for (long p = 1; p <= below; p++) {
      assertTrue(positions.contains(p), "the blocks below the floor are not a prefix: " + placed(blocks));
    }
    assertTrue(below < floor, "the replica holds everything below the floor: nothing was compacted past it");
  }
}
