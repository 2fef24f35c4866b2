package dev.feedstore.sqlite.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.testing.MemoryAuthority;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A replay must terminate (DESIGN 5.2): the displacements it repairs are not new evidence, and an
 * authority that keeps changing under it does not make the replica loop.
 */
class ReplayTerminationTest {
  @RegisterExtension final SyncFixture sync = new SyncFixture();

  @Test
  void aReplayUnderWayIsNotRestartedByTheDisplacementsItRepairs() {
    StoreReplica alice = sync.replica("alice", 5);
    StoreReplica bob = sync.replica("bob", 5);
    FeedId feed = alice.createFeed();
    bob.follow(feed);
    sync.append(alice, feed, "a", 10);
    sync.driver.untilQuiet(10, alice, bob);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "lost", 20);
    sync.driver.untilQuiet(10, alice);

    sync.authority.restore(before);
    sync.append(bob, feed, "b", 25);
    sync.driver.untilQuiet(10, bob);
    assertEquals(SyncStep.Kind.ROLLED_BACK, sync.driver.pull(alice).kind());
    assertEquals(Position.of(35), alice.state().replayUntil());
    // Seven pages of five cover bob's blocks at 11..35, each displacing blocks alice pushed there.
    List<SyncStep> replay = new ArrayList<>();
    while (alice.state().isReplaying() && replay.size() < 20) {
      replay.add(sync.driver.pull(alice));
    }

    assertEquals(7, replay.size(), replay.toString());
    assertTrue(replay.stream().allMatch(step -> step.kind() == SyncStep.Kind.PULLED), replay.toString());
    assertTrue(replay.get(3).blocks() > 5, "pages displaced alice's blocks: " + replay);
    sync.settleAndCheck(feed, alice, bob);
    assertEquals(1, sync.driver.steps().stream().filter(s -> s.kind() == SyncStep.Kind.ROLLED_BACK).count(),
        "one rollback, then one replay that repaired every displacement: " + sync.driver.steps());
  }

  @Test
  void anAuthorityThatKeepsChangingUnderAReplayDoesNotMakeTheReplicaLoop() {
    StoreReplica alice = sync.replica("alice", 4);
    StoreReplica bob = sync.replica("bob", 4);
    FeedId feed = alice.createFeed();
    bob.follow(feed);
    List<MemoryAuthority.Snapshot> snapshots = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      sync.append(alice, feed, "a" + i, 6);
      sync.append(bob, feed, "b" + i, 3);
      sync.driver.untilQuiet(10, alice, bob);
      snapshots.add(sync.authority.snapshot());
    }

    // Between pulls of alice's replay the authority changes again: rollbacks to older copies, a
    // wipe, and bob writing and pushing in between.
    sync.authority.restore(snapshots.get(1));
    int changes = 0;
    for (int step = 0; changes < 8; step++) {
      sync.driver.pull(alice);
      if (step % 2 == 1) {
        switch (changes % 4) {
          case 0 -> sync.authority.restore(snapshots.get(changes % snapshots.size()));
          case 1 -> sync.append(bob, feed, "bob-during-" + changes, 2);
          case 2 -> sync.authority.wipe();
          default -> sync.driver.push(bob);
        }
        changes++;
      }
    }

    // Once the authority holds still, sync settles in a bounded number of rounds.
    int rounds = sync.driver.untilQuiet(12, alice, bob);
    assertTrue(rounds <= 12, "settled in " + rounds + " rounds");
    assertFalse(alice.state().isReplaying());
    sync.settleAndCheck(feed, alice, bob);
  }
}
