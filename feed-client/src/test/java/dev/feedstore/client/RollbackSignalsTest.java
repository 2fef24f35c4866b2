package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.AuthorityFixture;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.client.testing.SyncDriver;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authority is restored from an older copy after it acknowledged more blocks; each test makes
 * one of the five rollback signals of DESIGN 5.2 the one that notices, then checks that every
 * replica converges with nothing lost and nothing duplicated.
 */
class RollbackSignalsTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;
  private AuthorityFixture authority;
  private Replicas replicas;
  private SyncDriver driver;
  private FeedId feed;

  @BeforeEach
  void setUp() {
    authority = new AuthorityFixture(dir);
    replicas = new Replicas(dir);
    driver = new SyncDriver(authority.authority(), SPACE);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  private Replica replicaFollowingTheFeed(String actor) {
    Replica replica = replicas.open(actor);
    follow(replica);
    return replica;
  }

  private void follow(Replica replica) {
    if (feed == null) {
      feed = replica.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    } else {
      replica.replicate(SPACE, feed, Replication.fullHistory());
    }
  }

  @Test
  void signal1_pulledBlockAtAPositionWhereTheReplicaHoldsAnother() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice, bob);
    Path before = authority.snapshot();

    replicas.append(alice, SPACE, feed, "x", 1);
    assertEquals(SyncStep.Kind.PUSHED, driver.push(alice).kind());
    authority.restoreFrom(before);
    replicas.append(bob, SPACE, feed, "y", 1);
    driver.untilQuiet(10, bob);

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 1"), step.detail());
    settleAndCheck(alice, bob);
  }

  @Test
  void signal2_pulledBlockTheReplicaHoldsArrivesAtAnotherPosition() {
    Replica alice = replicas.open("alice", 1, 500);
    follow(alice);
    Replica bob = replicaFollowingTheFeed("bob");
    Replica carol = replicaFollowingTheFeed("carol");
    replicas.append(alice, SPACE, feed, "a", 3);
    driver.untilQuiet(10, alice, bob, carol);
    Path before = authority.snapshot();

    replicas.append(bob, SPACE, feed, "b", 1);
    driver.push(bob);
    replicas.append(alice, SPACE, feed, "x", 1);
    driver.push(alice);
    driver.untilQuiet(10, carol);
    authority.restoreFrom(before);
    // Carol notices first (her cursor is above the restored authority's) and pushes both blocks
    // again; alice's block comes first this time.
    SyncStep carolStep = driver.pull(carol);
    assertTrue(carolStep.detail().contains("rollback signal 4"), carolStep.detail());
    driver.untilQuiet(10, carol);

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 2"), step.detail());
    settleAndCheck(alice, bob, carol);
  }

  @Test
  void signal3_pushedBlockPositionedAtOrBelowTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "b", 5);
    driver.untilQuiet(10, alice);
    assertEquals(10, alice.sync(SPACE).state().cursor().value());

    authority.restoreFrom(before);
    replicas.append(alice, SPACE, feed, "z", 1);
    SyncStep step = driver.push(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 3"), step.detail());
    settleAndCheck(alice);
  }

  @Test
  void signal4_cursorAboveTheAuthoritysHighestPosition() {
    Replica alice = replicaFollowingTheFeed("alice");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "b", 5);
    driver.untilQuiet(10, alice);

    authority.restoreFrom(before);
    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 4"), step.detail());
    settleAndCheck(alice);
  }

  @Test
  void signal5_cursorBlockDiffersAfterOthersWroteTheAuthorityBackPastTheCursor() {
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    replicas.append(alice, SPACE, feed, "a", 5);
    driver.untilQuiet(10, alice, bob);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "lost", 5);
    driver.untilQuiet(10, alice);
    assertEquals(10, alice.sync(SPACE).state().cursor().value());

    authority.restoreFrom(before);
    replicas.append(bob, SPACE, feed, "b", 5);
    driver.untilQuiet(10, bob);
    assertEquals(10, authority.store().read(tx -> tx.blocks().maxPosition(SPACE)).value());

    SyncStep step = driver.pull(alice);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 5"), step.detail());
    settleAndCheck(alice, bob);
  }

  @Test
  void signal5_historyBelowTheCursorChangedWhileTheSameBlockIsAtTheCursor() {
    // The authority is swapped, then restored from a copy made before anything was written (it has
    // its first token again), and alice pushes her blocks again in another order: bob's cursor block
    // is the same block as before, but the blocks below it traded positions.
    Replica alice = replicaFollowingTheFeed("alice");
    Replica bob = replicaFollowingTheFeed("bob");
    FeedId second = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, second, Replication.fullHistory());
    driver.pull(bob);
    Path empty = authority.snapshot();
    replicas.append(alice, SPACE, second, "x", 1);
    driver.push(alice);
    replicas.append(alice, SPACE, feed, "a", 1);
    replicas.append(alice, SPACE, second, "y", 1);
    driver.push(alice);
    driver.untilQuiet(10, bob);
    assertEquals(3, bob.sync(SPACE).state().cursor().value());

    authority.wipe();
    driver.pull(alice);
    authority.restoreFrom(empty);
    driver.untilQuiet(10, alice);
    assertEquals(authority.store().read(tx -> tx.blocks().atPosition(SPACE, dev.feedstore.core.Position.of(3)))
        .orElseThrow().key(), bob.read(SPACE, second).get(1).key(), "the same block at bob's cursor");

    SyncStep step = driver.pull(bob);
    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("history chain differs"), step.detail());
    driver.untilQuiet(20, alice, bob);
    assertConverged(authority.store(), SPACE, List.of(feed, second), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  private void settleAndCheck(Replica... all) {
    driver.untilQuiet(20, all);
    assertConverged(authority.store(), SPACE, List.of(feed), all);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }
}
