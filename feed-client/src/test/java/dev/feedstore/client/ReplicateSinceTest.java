package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas that follow a feed, or a whole space, from a time: the authority resolves the time to a
 * position at the first contact, the replica keeps that as its start, and it holds exactly the blocks
 * received at or after the time, then everything new. Real server over loopback.
 */
class ReplicateSinceTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  private static List<String> data(Replica replica, FeedId feed) {
    return replica.read(SPACE, feed).stream().map(b -> b.data().toStringUtf8()).toList();
  }

  private static void sync(Replica replica, RestartableServer authority) throws InterruptedException {
    try (SyncSession session = replica.connect(authority.address(), ConnectOptions.DEFAULTS)) {
      assertTrue(session.awaitSynced(Duration.ofSeconds(20)), session.status().toString());
    }
  }

  /**
   * The millisecond after the last receive time of the space, once the clock reached it, so that
   * every block appended from now on is received at or after it.
   */
  private static Instant afterEverythingReceived(RestartableServer authority) {
    long last = authority.blocks(SPACE).stream().mapToLong(b -> b.receivedAt().orElseThrow()).max().orElseThrow();
    Instant since = Instant.ofEpochMilli(last + 1);
    Await.until("the clock to pass " + since, () -> System.currentTimeMillis() >= since.toEpochMilli());
    return since;
  }

  @Test
  void aReplicaFollowingSinceATimeHoldsExactlyTheBlocksReceivedFromThenAndEverythingNew() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      FeedId elsewhere = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "early", 3);
      replicas.append(alice, SPACE, elsewhere, "early elsewhere", 2);
      sync(alice, authority);
      Instant since = afterEverythingReceived(authority);
      List<String> later = new ArrayList<>(replicas.append(alice, SPACE, feed, "later", 4));
      List<String> laterElsewhere = replicas.append(alice, SPACE, elsewhere, "later elsewhere", 1);
      sync(alice, authority);

      Replica bob = replicas.open("bob");
      bob.replicate(SPACE, feed, Replication.since(since));
      Replica carol = replicas.open("carol");
      carol.replicateSpace(SPACE, Replication.since(since));
      sync(bob, authority);
      sync(carol, authority);

      assertEquals(later, data(bob, feed), "the feed's blocks received at or after the time, none before");
      assertEquals(Replication.from(Position.of(6)), bob.replication(SPACE, feed),
          "resolved to the first position received at or after the time, and kept");
      assertTrue(bob.read(SPACE, feed).stream().allMatch(b -> b.receivedAt().orElseThrow() >= since.toEpochMilli()),
          "the replica keeps the receive times it pulled");
      assertEquals(later, data(carol, feed), "a whole space since the time");
      assertEquals(laterElsewhere, data(carol, elsewhere));

      later.addAll(replicas.append(alice, SPACE, feed, "live", 2));
      sync(alice, authority);
      sync(bob, authority);
      assertEquals(later, data(bob, feed), "then everything new, from its cursor");
    }
  }

  @Test
  void aFeedAddedSinceATimeBelowTheReplicasCursorIsBackFilledFromThere() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      FeedId followed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      replicas.append(alice, SPACE, feed, "early", 2);
      sync(alice, authority);
      Instant since = afterEverythingReceived(authority);
      List<String> later = replicas.append(alice, SPACE, feed, "later", 3);
      List<String> others = replicas.append(alice, SPACE, followed, "followed", 3);
      sync(alice, authority);

      Replica bob = replicas.open("bob");
      bob.replicate(SPACE, followed, Replication.fullHistory());
      sync(bob, authority); // bob's cursor is now past every block of feed
      assertEquals(others, data(bob, followed));
      bob.replicate(SPACE, feed, Replication.since(since));
      sync(bob, authority);
      assertEquals(later, data(bob, feed), "the blocks of feed received since the time, below bob's cursor");
      assertEquals(others, data(bob, followed));
    }
  }

  @Test
  void aTimeBeforeTheAuthoritysHistoryStartsAtItsBeginning() throws Exception {
    try (RestartableServer authority = RestartableServer.loopback(dir); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      List<String> all = replicas.append(alice, SPACE, feed, "all", 3);
      sync(alice, authority);

      Replica bob = replicas.open("bob");
      bob.replicate(SPACE, feed, Replication.since(Instant.EPOCH));
      sync(bob, authority);
      assertEquals(all, data(bob, feed));
      assertEquals(Replication.from(Position.FIRST), bob.replication(SPACE, feed));
      List<Block> held = bob.read(SPACE, feed);
      assertEquals(3, held.size());
    }
  }

  @Test
  void aTimeBefore1970IsRefused() {
    InvalidValueException e = assertThrows(InvalidValueException.class,
        () -> Replication.since(Instant.EPOCH.minusMillis(1)));
    assertTrue(e.getMessage().contains("since must be at or after 1970-01-01T00:00:00Z"), e.getMessage());
  }
}
