package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.assertExactlyOnce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConvergenceTest {
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
  void twoReplicasWritingOfflineToTheSameFeedConverge() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    FeedId feed = alice.createFeed(SPACE, Optional.of(Namespace.of("notes")), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());

    replicas.append(alice, SPACE, feed, "alice", 5);
    replicas.append(bob, SPACE, feed, "bob", 4);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, alice, bob);

    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
    assertEquals(9, alice.read(SPACE, feed).size());
  }

  @Test
  void threeReplicasWritingOfflineToSeveralFeedsConverge() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    Replica carol = replicas.open("carol");
    FeedId shared = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    FeedId bobs = bob.createFeed(SPACE, Optional.of(Namespace.of("data")), Replication.fullHistory());
    for (Replica replica : List.of(bob, carol)) {
      replica.replicate(SPACE, shared, Replication.fullHistory());
    }
    alice.replicate(SPACE, bobs, Optional.of(Namespace.of("data")), Replication.fullHistory());
    carol.replicate(SPACE, bobs, Optional.of(Namespace.of("data")), Replication.fullHistory());

    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    for (int round = 0; round < 3; round++) {
      replicas.append(alice, SPACE, shared, "alice-r" + round, 3);
      replicas.append(bob, SPACE, shared, "bob-r" + round, 2);
      replicas.append(bob, SPACE, bobs, "bobs-r" + round, 2);
      replicas.append(carol, SPACE, shared, "carol-r" + round, 4);
      replicas.append(carol, SPACE, bobs, "carol-bobs-r" + round, 1);
      // Only some of them sync each round; the others stay offline.
      driver.push(round % 2 == 0 ? alice : carol);
      driver.pull(bob);
    }
    driver.untilQuiet(10, alice, bob, carol);

    assertConverged(authority.store(), SPACE, List.of(shared, bobs), alice, bob, carol);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
    assertEquals(Optional.of(Namespace.of("data")),
        authority.store().read(tx -> tx.feeds().find(SPACE, bobs)).orElseThrow().namespace());
  }

  @Test
  void feedFollowedByIdLearnsItsNamespaceFromTheAuthority() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    FeedId feed = alice.createFeed(SPACE, Optional.of(Namespace.of("notes")), Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "a", 1);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, alice);
    bob.replicate(SPACE, feed, Replication.fullHistory());
    assertEquals(Optional.empty(), bob.feeds(SPACE).get(0).namespace());
    driver.untilQuiet(10, bob);
    assertEquals(Optional.of(Namespace.of("notes")), bob.feeds(SPACE).get(0).namespace());
  }

  @Test
  void predecessorsFollowEachAuthorsLocalOrder() {
    Replica alice = replicas.open("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "a", 3);
    List<Block> blocks = alice.read(SPACE, feed);
    assertTrue(blocks.get(0).predecessor().isEmpty());
    assertEquals(blocks.get(0).key().sequence(), blocks.get(1).predecessor().orElseThrow().sequence());
    assertEquals(blocks.get(1).key().sequence(), blocks.get(2).predecessor().orElseThrow().sequence());
  }

  @Test
  void sessionsSyncTwoReplicasLive() throws Exception {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "offline-alice", 3);
    replicas.append(bob, SPACE, feed, "offline-bob", 2);

    try (SyncSession a = alice.connect(authority.channel()); SyncSession b = bob.connect(authority.channel())) {
      assertTrue(a.awaitSynced(Duration.ofSeconds(30)), "alice synced: " + a.status());
      assertTrue(b.awaitSynced(Duration.ofSeconds(30)), "bob synced: " + b.status());
      Await.until("both hold all five blocks", () -> alice.read(SPACE, feed).size() == 5 && bob.read(SPACE, feed).size() == 5
          && alice.read(SPACE, feed).stream().allMatch(Block::isPositioned)
          && bob.read(SPACE, feed).stream().allMatch(Block::isPositioned));
      replicas.append(alice, SPACE, feed, "live-alice", 2);
      Await.until("bob receives alice's live blocks", () -> bob.read(SPACE, feed).size() == 7
          && bob.read(SPACE, feed).stream().allMatch(Block::isPositioned));
      Await.until("alice positioned her live blocks", () -> alice.read(SPACE, feed).stream().allMatch(Block::isPositioned));
    }
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertExactlyOnce(authority.store(), SPACE, replicas.written());
  }
}
