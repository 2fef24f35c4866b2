package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static dev.feedstore.client.testing.Convergence.positions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SwapAndFirstTokenTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  @Test
  void wipedAuthorityIsRefilledByItsClientsExactlyOnce() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    Replica carol = replicas.open("carol");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    carol.replicate(SPACE, feed, Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "alice", 4);
    replicas.append(bob, SPACE, feed, "bob", 3);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, alice, bob, carol);
    String oldToken = alice.sync(SPACE).state().serverToken().orElseThrow().value();

    authority.wipe();
    replicas.append(carol, SPACE, feed, "carol-after-wipe", 2);
    replicas.append(alice, SPACE, feed, "alice-after-wipe", 1);
    driver.untilQuiet(10, alice, bob, carol);

    assertTrue(driver.saw(SyncStep.Kind.SWAPPED, "server token changed"), driver.steps().toString());
    assertNotEquals(oldToken, alice.sync(SPACE).state().serverToken().orElseThrow().value());
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob, carol);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  @Test
  void firstTokenOverProgressFromTheSameAuthorityKeepsTheProgress() {
    Replica alice = replicas.open("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "a", 5);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, alice);
    var before = positions(alice, SPACE, feed);

    alice = forgetToken(alice);
    assertEquals(SyncStep.Kind.VERIFYING, driver.pull(alice).kind());
    assertEquals(4, alice.sync(SPACE).state().cursor().value(), "stepped back one block");
    driver.untilQuiet(10, alice);

    assertFalse(driver.saw(SyncStep.Kind.ROLLED_BACK, ""), driver.steps().toString());
    assertFalse(driver.saw(SyncStep.Kind.SWAPPED, ""), driver.steps().toString());
    assertEquals(before, positions(alice, SPACE, feed));
    assertEquals(5, alice.sync(SPACE).state().cursor().value());
  }

  @Test
  void firstTokenOverProgressFromAnotherAuthorityReplays() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "a", 5);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, alice);

    // Another authority, on which bob wrote first: its positions name other blocks.
    authority.wipe();
    replicas.append(bob, SPACE, feed, "b", 6);
    driver.untilQuiet(10, bob);
    alice = forgetToken(alice);
    driver.untilQuiet(10, alice, bob);

    assertTrue(driver.saw(SyncStep.Kind.VERIFYING, "first token"), driver.steps().toString());
    assertTrue(driver.saw(SyncStep.Kind.ROLLED_BACK, "rollback signal"), driver.steps().toString());
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  /** Makes the replica look like one written by a version that did not record tokens. */
  private Replica forgetToken(Replica replica) {
    String actor = replica.actorId().value();
    replica.close();
    try (SqliteFeedStore store = SqliteFeedStore.open(replicas.file(actor))) {
      store.write(tx -> {
        SyncState state = tx.syncStates().get(SPACE);
        tx.syncStates().put(SPACE, new SyncState(state.cursor(), state.cursorBlock(), Optional.empty(), state.replayUntil()));
        return null;
      });
    }
    return replicas.open(actor);
  }
}
