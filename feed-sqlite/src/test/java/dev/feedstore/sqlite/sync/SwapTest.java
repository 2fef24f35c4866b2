package dev.feedstore.sqlite.sync;

import static dev.feedstore.sqlite.sync.SyncFixture.SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.sync.SyncStep;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The token rules of DESIGN 5.2: a new token is a swap (every position cleared, replay from the
 * start, the replicas refill the new store), and the first token over progress held is verified.
 */
class SwapTest {
  @RegisterExtension final SyncFixture sync = new SyncFixture();

  @Test
  void aWipedAuthorityIsRefilledByItsReplicasExactlyOnce() {
    StoreReplica alice = sync.replica("alice");
    StoreReplica bob = sync.replica("bob");
    FeedId feed = alice.createFeed();
    bob.follow(feed);
    sync.append(alice, feed, "a", 4);
    sync.append(bob, feed, "b", 3);
    sync.driver.untilQuiet(10, alice, bob);
    ServerToken old = alice.state().serverToken().orElseThrow();

    sync.authority.wipe();
    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.SWAPPED, step.kind(), step.detail());
    assertTrue(step.detail().contains("server token changed from " + old), step.detail());
    SyncState state = alice.state();
    assertEquals(Position.NONE, state.cursor(), "replayed from the start");
    assertEquals(Optional.of(sync.authority.token(SPACE)), state.serverToken(), "the new token is recorded");
    assertTrue(alice.read(feed).stream().noneMatch(Block::isPositioned), "every position is cleared, to push again");
    sync.settleAndCheck(feed, alice, bob);
  }

  @Test
  void aPushAnsweredWithANewTokenSwapsAndNothingOfItIsTakenAsAPosition() {
    StoreReplica alice = sync.replica("alice");
    FeedId feed = alice.createFeed();
    sync.append(alice, feed, "a", 3);
    sync.driver.untilQuiet(10, alice);

    sync.authority.wipe();
    sync.append(alice, feed, "b", 1);
    SyncStep step = sync.driver.push(alice);

    assertEquals(SyncStep.Kind.SWAPPED, step.kind(), step.detail());
    assertTrue(alice.read(feed).stream().noneMatch(Block::isPositioned),
        "the position the new store gave b is not recorded, and the old ones are cleared");
    sync.settleAndCheck(feed, alice);
    assertEquals("b-0", sync.authority.blocks(SPACE).get(0).data().toStringUtf8(),
        "the new store kept the push the swap answered, and b, pushed again, kept its position there");
  }

  @Test
  void theFirstTokenOverProgressHeldStepsTheCursorBackOneBlockToVerifyIt() {
    StoreReplica alice = sync.replica("alice");
    FeedId feed = alice.createFeed();
    sync.append(alice, feed, "a", 3);
    sync.driver.untilQuiet(10, alice);
    // A replica of a version that kept no token: progress up to 3, no token.
    alice.putState(new SyncState(Position.of(3), Optional.empty(), Optional.empty(), Position.NONE));

    SyncStep step = sync.driver.pull(alice);

    assertEquals(SyncStep.Kind.VERIFYING, step.kind(), step.detail());
    assertEquals(Position.of(2), alice.state().cursor(), "one block back");
    assertEquals(Optional.of(alice.read(feed).get(1).key()), alice.state().cursorBlock());
    assertEquals(Optional.of(sync.authority.token(SPACE)), alice.state().serverToken());
    SyncStep verified = sync.driver.pull(alice);
    assertEquals(SyncStep.Kind.PULLED, verified.kind(), verified.detail());
    assertEquals(0, verified.blocks(), "the same block at 3: every position is kept");
    assertEquals(Position.of(3), alice.state().cursor());
    sync.settleAndCheck(feed, alice);
  }
}
