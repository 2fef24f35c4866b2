package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.PushBatch;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica holds the authority's receive time of every positioned block, however it came to hold
 * the position: pulled with the block, or answered to its own push. So replicas holding the same
 * blocks hold the same metadata, and live queries on receive time agree between them.
 */
class ReceiveTimeTest {
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
  void aPushedBlockTakesTheReceiveTimeTheAuthorityAnsweredAsAPullingReplicaDoes() {
    Replica alice = replicas.open("alice");
    Replica bob = replicas.open("bob");
    FeedId feed = alice.createFeed(SPACE, Optional.of(Namespace.of("notes")), Replication.fullHistory());
    bob.replicate(SPACE, feed, Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "alice", 3);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);

    driver.push(alice);
    driver.pull(bob);

    List<Block> served = authority.store().read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10));
    assertEquals(3, served.size());
    assertTrue(served.stream().allMatch(b -> b.receivedAt().isPresent()), served.toString());
    assertEquals(receiveTimes(served), receiveTimes(alice.read(SPACE, feed)), "the pusher");
    assertEquals(receiveTimes(served), receiveTimes(bob.read(SPACE, feed)), "the puller");
  }

  @Test
  void aPushAnsweredWithoutReceiveTimesLearnsThemWhenItPullsTheBlocks() {
    Replica alice = replicas.open("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(alice, SPACE, feed, "alice", 2);
    SpaceSync sync = alice.sync(SPACE);
    GrpcAuthority grpc = new GrpcAuthority(authority.channel());
    PushBatch batch = sync.beginPush(grpc.limits()).orElseThrow();
    AppendReply answered = grpc.append(SPACE, batch.namespace(), batch.blocks());
    // What an authority from before receive times in the answer says: positions only.
    sync.applyPush(batch, new AppendReply(answered.positions(), answered.serverToken()));
    assertEquals(List.of(OptionalLong.empty(), OptionalLong.empty()), receiveTimes(alice.read(SPACE, feed)));

    Replicas.driver(authority.channel(), SPACE).pull(alice);

    assertEquals(answered.receivedAt(), receiveTimes(alice.read(SPACE, feed)));
    assertTrue(answered.receivedAt().stream().allMatch(OptionalLong::isPresent), answered.toString());
  }

  private static List<OptionalLong> receiveTimes(List<Block> blocks) {
    return blocks.stream().map(Block::receivedAt).toList();
  }
}
