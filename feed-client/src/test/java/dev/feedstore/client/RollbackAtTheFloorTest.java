package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rollback signals at exactly the floor: the authority keeps the key and history chain of the
 * block that was at its floor, so a replica whose cursor is the floor still notices that the
 * authority lost the block it pulled there. Real server over loopback, real SQLite files, a real
 * restore of the authority's file from a backup.
 */
class RollbackAtTheFloorTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aReplicaAtTheFloorNoticesThatTheAuthorityLostTheBlockThereAndPushesItAgain() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      ManagedChannel channel = authority.newChannel();
      try {
        SyncDriver<Replica> driver = Replicas.driver(channel, SPACE);
        Replica alice = replicas.open("alice");
        Replica bob = replicas.open("bob");
        FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
        bob.replicate(SPACE, feed, Replication.fullHistory());
        replicas.append(alice, SPACE, feed, "kept", 5);
        driver.untilQuiet(10, alice, bob);
        Path backup = authority.snapshot();

        // Position 6 goes to alice's block, which bob pulls; then the authority is restored from the
        // backup (same token, history up to 5), gives 6 to carol's block and compacts up to 6.
        replicas.append(alice, SPACE, feed, "lost", 1);
        driver.untilQuiet(10, alice, bob);
        assertEquals(Position.of(6), bob.sync(SPACE).state().cursor());
        authority.restoreFrom(backup);
        Replica carol = replicas.open("carol");
        carol.replicate(SPACE, feed, Replication.fullHistory());
        driver.untilQuiet(10, carol);
        replicas.append(carol, SPACE, feed, "other", 1);
        driver.push(carol);
        assertEquals(6, FeedSyncGrpc.newBlockingStub(channel).compact(CompactRequest.newBuilder()
            .setSpaceId(SPACE.value()).setUpTo(6).build()).getFloor());

        driver.untilQuiet(20, bob, alice, carol);
        assertTrue(driver.saw(SyncStep.Kind.ROLLED_BACK, "rollback signal 5: at the cursor 6"),
            driver.steps().toString());
        Block lost = authority.blocks(SPACE).stream().filter(b -> b.data().toStringUtf8().equals("lost-0"))
            .findFirst().orElseThrow(() -> new AssertionError("the lost block was not pushed again: "
                + authority.blocks(SPACE)));
        assertTrue(lost.position().value() > 6, lost.toString());
        for (Replica replica : new Replica[] {alice, bob}) {
          Block held = replica.read(SPACE, feed).stream().filter(b -> b.data().toStringUtf8().equals("lost-0"))
              .findFirst().orElseThrow();
          assertEquals(lost.position(), held.position(), "every replica holds it where the authority does");
        }
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
