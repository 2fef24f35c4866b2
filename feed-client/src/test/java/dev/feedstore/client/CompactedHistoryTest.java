package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.Await;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.LoopbackServer;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose cursor fell below a compaction on the authority: it is told, and says so in its
 * status; it keeps every block it holds and still pushes what it wrote offline. Real server over
 * loopback.
 */
class CompactedHistoryTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aReplicaBehindTheFloorReportsItKeepsWhatItHoldsAndStillPushes() throws Exception {
    try (LoopbackServer authority = new LoopbackServer(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      Replica bob = replicas.open("bob");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "early", 3);
      try (SyncSession a = alice.connect(authority.target(), ConnectOptions.DEFAULTS)) {
        assertTrue(a.awaitSynced(Duration.ofSeconds(20)), a.status().toString());
      }
      bob.replicate(SPACE, feed, Replication.fullHistory());
      try (SyncSession b = bob.connect(authority.target(), ConnectOptions.DEFAULTS)) {
        assertTrue(b.awaitSynced(Duration.ofSeconds(20)), b.status().toString());
      }
      assertEquals(3, bob.read(SPACE, feed).size());

      // While bob is away: alice appends more, and the authority compacts past bob's cursor.
      replicas.append(alice, SPACE, feed, "later", 5);
      try (SyncSession a = alice.connect(authority.target(), ConnectOptions.DEFAULTS)) {
        assertTrue(a.awaitSynced(Duration.ofSeconds(20)), a.status().toString());
      }
      ManagedChannel channel = authority.newChannel();
      try {
        assertEquals(6, FeedSyncGrpc.newBlockingStub(channel).compact(CompactRequest.newBuilder()
            .setSpaceId(SPACE.value()).setUpTo(6).build()).getFloor());
      } finally {
        channel.shutdownNow();
      }
      replicas.append(bob, SPACE, feed, "offline", 2);

      try (SyncSession b = bob.connect(authority.target(), ConnectOptions.DEFAULTS)) {
        Await.until("bob reports the compacted history", Duration.ofSeconds(20),
            () -> b.status().refusals().stream().anyMatch(r -> r.held() == Refusal.Held.PULLS));
        Refusal refusal = b.status().refusals().stream().filter(r -> r.held() == Refusal.Held.PULLS).findFirst()
            .orElseThrow();
        assertEquals(Status.Code.FAILED_PRECONDITION, refusal.code());
        assertTrue(refusal.description().contains("below the floor 6"), refusal.description());
        Await.until("bob's offline blocks are pushed", Duration.ofSeconds(20),
            () -> authority.blocks(SPACE).size() == 4);
      }
      List<Block> held = bob.read(SPACE, feed);
      assertEquals(5, held.size(), "bob keeps the three it pulled and the two it wrote");
      List<Long> pushed = authority.blocks(SPACE).stream().map(b -> b.position().value()).toList();
      assertEquals(List.of(7L, 8L, 9L, 10L), pushed, "bob's offline blocks are positioned above the floor");
    }
  }
}
