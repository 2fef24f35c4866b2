package dev.feedstore.sqlite.sync;

import static dev.feedstore.sqlite.sync.SyncFixture.SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.testing.MemoryAuthority;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The authority is restored from an older copy after it acknowledged more blocks (same token, lost
 * history); each test makes one of the rollback signals of DESIGN 5.2 the one that notices, checks
 * the step that noticed and what the replica did in it, then that every replica settles with the
 * authority, nothing lost and nothing twice.
 */
class RollbackSignalsTest {
  @RegisterExtension final SyncFixture sync = new SyncFixture();
  private FeedId feed;

  /** A replica of {@code actor} that follows the test's feed (the first one creates it). */
  private StoreReplica following(String actor, int pullLimit) {
    StoreReplica replica = sync.replica(actor, pullLimit);
    if (feed == null) {
      feed = replica.createFeed();
    } else {
      replica.follow(feed);
    }
    return replica;
  }

  private StoreReplica following(String actor) {
    return following(actor, 500);
  }

  @Test
  void signal1_aPulledBlockArrivesWhereTheReplicaHoldsAnother() {
    StoreReplica alice = following("alice");
    StoreReplica bob = following("bob");
    sync.append(alice, feed, "a", 5);
    sync.driver.untilQuiet(10, alice, bob);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "x", 1);
    assertEquals(SyncStep.Kind.PUSHED, sync.driver.push(alice).kind());
    BlockKey x = alice.read(feed).get(5).key();

    sync.authority.restore(before);
    sync.append(bob, feed, "y", 1);
    sync.driver.untilQuiet(10, bob);
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 1"), step.detail());
    assertEquals(Position.NONE, alice.state().cursor(), "the space is replayed from the start");
    assertEquals(Position.of(6), alice.state().replayUntil(), "up to the authority's highest position");
    assertEquals(Position.of(6), alice.find(x).position(), "the replay finds out what x lost, not the rollback");
    assertEquals(SyncStep.Kind.PULLED, sync.driver.pull(alice).kind());
    assertEquals(Position.NONE, alice.find(x).position(), "the replay gave 6 to y; x will be pushed again");
    assertFalse(alice.state().isReplaying(), "the replay reached the authority's highest position");
    sync.settleAndCheck(feed, alice, bob);
  }

  @Test
  void signal1_aPushedBlockIsGivenAPositionWhereTheReplicaHoldsAnother() {
    StoreReplica alice = following("alice");
    StoreReplica bob = following("bob");
    sync.append(alice, feed, "a", 2);
    sync.driver.untilQuiet(10, alice, bob);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(bob, feed, "x", 1);
    sync.driver.push(bob); // x takes 3; bob's cursor stays at 2

    sync.authority.restore(before);
    sync.append(bob, feed, "b", 1);
    SyncStep step = sync.driver.push(bob); // b takes 3 again, where bob holds x

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 1: pushed block"), step.detail());
    sync.settleAndCheck(feed, alice, bob);
  }

  @Test
  void signal2_aPulledBlockTheReplicaHoldsArrivesAtAnotherPosition() {
    // Alice pulls a block a page, so that her first page after the rollback shows her block x at a
    // position of its own, before any block shows where she holds x.
    StoreReplica alice = following("alice", 1);
    StoreReplica bob = following("bob");
    StoreReplica carol = following("carol");
    sync.append(alice, feed, "a", 3);
    sync.driver.untilQuiet(10, alice, bob, carol);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(bob, feed, "b", 1);
    sync.driver.push(bob); // 4
    sync.append(alice, feed, "x", 1);
    sync.driver.push(alice); // 5
    sync.driver.untilQuiet(10, carol);

    sync.authority.restore(before);
    // Carol notices first (her cursor is above the authority's highest position) and pushes both
    // blocks again, in feed order: alice's x (the same sequence as bob's b, and "alice" < "bob") first.
    SyncStep carols = sync.driver.pull(carol);
    assertTrue(carols.detail().contains("rollback signal 4"), carols.detail());
    sync.driver.untilQuiet(10, carol);
    assertEquals(Position.of(4), sync.authority.blocks(SPACE).get(3).position());
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 2"), step.detail());
    sync.settleAndCheck(feed, alice, bob, carol);
  }

  @Test
  void signal3_aPushedBlockIsGivenAPositionAtOrBelowTheCursor() {
    StoreReplica alice = following("alice");
    sync.append(alice, feed, "a", 5);
    sync.driver.untilQuiet(10, alice);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "b", 5);
    sync.driver.untilQuiet(10, alice);
    assertEquals(Position.of(10), alice.state().cursor());

    sync.authority.restore(before);
    sync.append(alice, feed, "z", 1);
    SyncStep step = sync.driver.push(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 3"), step.detail());
    assertTrue(alice.state().isReplaying(), "the replay runs until the first pull tells how far");
    sync.settleAndCheck(feed, alice);
  }

  @Test
  void signal4_theCursorIsAboveTheAuthoritysHighestPosition() {
    StoreReplica alice = following("alice");
    sync.append(alice, feed, "a", 5);
    sync.driver.untilQuiet(10, alice);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "b", 5);
    sync.driver.untilQuiet(10, alice);

    sync.authority.restore(before);
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 4: the cursor 10 is above"), step.detail());
    List<Block> held = alice.read(feed);
    assertTrue(held.subList(0, 5).stream().allMatch(Block::isPositioned), "what the authority kept stays");
    assertTrue(held.subList(5, 10).stream().noneMatch(Block::isPositioned), "what it lost is pushed again");
    sync.settleAndCheck(feed, alice);
  }

  @Test
  void signal4_aPositionThePushGaveIsAboveTheAuthoritysHighest() {
    StoreReplica alice = following("alice");
    sync.append(alice, feed, "a", 3);
    sync.driver.untilQuiet(10, alice);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "b", 2);
    sync.driver.push(alice); // positions 4 and 5, which the cursor (3) has not reached

    sync.authority.restore(before);
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 4: the replica held position 5"), step.detail());
    sync.settleAndCheck(feed, alice);
  }

  @Test
  void signal5_anotherBlockIsAtTheCursorAfterOthersWroteTheAuthorityBackPastIt() {
    StoreReplica alice = following("alice");
    StoreReplica bob = following("bob");
    sync.append(alice, feed, "a", 5);
    sync.driver.untilQuiet(10, alice, bob);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    sync.append(alice, feed, "lost", 5);
    sync.driver.untilQuiet(10, alice);

    sync.authority.restore(before);
    sync.append(bob, feed, "b", 5);
    sync.driver.untilQuiet(10, bob);
    assertEquals(alice.state().cursor(), sync.authority.blocks(SPACE).get(9).position(), "the same highest position");
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 5: at the cursor 10"), step.detail());
    sync.settleAndCheck(feed, alice, bob);
  }

  @Test
  void signal5_theSameKeyIsAtTheCursorWithOtherContent() {
    // Bob writes "first" under his next key and alice pulls it; then the authority and bob are both
    // restored from copies made before, and bob writes "second" under the same key, which takes the
    // same position: only the history chain at alice's cursor tells the two apart.
    StoreReplica alice = following("alice");
    StoreReplica bob = following("bob");
    sync.append(alice, feed, "a", 3);
    sync.driver.untilQuiet(10, alice, bob);
    MemoryAuthority.Snapshot before = sync.authority.snapshot();
    Path bobBefore = bob.backupTo(sync.file("bob-before.db"));
    sync.append(bob, feed, "first", 1);
    sync.driver.untilQuiet(10, bob, alice);
    Block first = alice.read(feed).get(3);

    sync.authority.restore(before);
    bob.restoreFrom(bobBefore);
    sync.append(bob, feed, "second", 1);
    sync.driver.untilQuiet(10, bob);
    Block second = sync.authority.blocks(SPACE).get(3);
    assertEquals(first.key(), second.key());
    assertEquals(first.position(), second.position());
    assertNotEquals(first.data(), second.data());
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.ROLLED_BACK, step.kind(), step.detail());
    assertTrue(step.detail().contains("rollback signal 5: the authority's history up to the cursor 4"), step.detail());
    sync.driver.untilQuiet(20, alice, bob);
    assertEquals(List.of("a-0", "a-1", "a-2", "second-0", "first-0"), data(alice.read(feed)),
        "alice keeps bob's first content under a new key, after the authority's");
    sync.settleAndCheck(feed, alice, bob);
  }

  private static List<String> data(List<Block> blocks) {
    return blocks.stream().map(b -> b.data().toStringUtf8()).toList();
  }
}
