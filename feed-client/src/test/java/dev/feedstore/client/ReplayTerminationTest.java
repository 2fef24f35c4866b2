package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayTerminationTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private SyncDriver<Replica> driver;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
    driver = Replicas.driver(authority.channel(), SPACE);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  @Test
  void aReplayUnderWayIsNotRestartedByTheDisplacementsItRepairs() {
    Replica alice = replicas.open("alice", 5, 500);
    Replica bob = replicas.open("bob", 5, 500);
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "a", 10);
    driver.untilQuiet(10, alice, bob);
    Path before = authority.snapshot();
    replicas.append(alice, SPACE, feed, "lost", 20);
    driver.untilQuiet(10, alice);

    authority.restoreFrom(before);
    replicas.append(bob, SPACE, feed, "b", 25);
    driver.untilQuiet(10, bob);
    int stepsBefore = driver.steps().size();
    driver.untilQuiet(20, alice, bob);

    long rollbacks = driver.steps().subList(stepsBefore, driver.steps().size()).stream()
        .filter(s -> s.kind() == SyncStep.Kind.ROLLED_BACK).count();
    assertEquals(1, rollbacks, "one rollback, then one replay that repairs every displacement: " + driver.steps());
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }

  @Test
  void anAuthorityThatKeepsChangingUnderAReplayDoesNotMakeTheReplicaLoop() {
    Replica alice = replicas.open("alice", 4, 500);
    Replica bob = replicas.open("bob", 4, 500);
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    List<Path> snapshots = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      replicas.append(alice, SPACE, feed, "a" + i, 6);
      replicas.append(bob, SPACE, feed, "b" + i, 3);
      driver.untilQuiet(10, alice, bob);
      snapshots.add(authority.snapshot());
    }

    // Between every pull of alice's replay, the authority changes again: rollbacks to older copies,
    // a wipe, and bob writing in between.
    int changes = 0;
    authority.restoreFrom(snapshots.get(1));
    for (int step = 0; changes < 8; step++) {
      driver.pull(alice);
      if (step % 2 == 1) {
        switch (changes % 4) {
          case 0 -> authority.restoreFrom(snapshots.get(changes % snapshots.size()));
          case 1 -> replicas.append(bob, SPACE, feed, "bob-during-" + changes, 2);
          case 2 -> authority.wipe();
          default -> driver.push(bob);
        }
        changes++;
      }
    }

    // Once the authority holds still, sync settles in a bounded number of rounds.
    int rounds = driver.untilQuiet(12, alice, bob);
    assertTrue(rounds <= 12, "settled in " + rounds + " rounds");
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }
}
