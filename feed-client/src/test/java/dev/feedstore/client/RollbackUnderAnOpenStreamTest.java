package dev.feedstore.client;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.HeldCalls;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica following a space live through a server over PostgreSQL, when the database is restored
 * from an older copy under them: the server ends the replica's Watch (the history went back), and
 * the replica connects again at once, finds the rollback from its cursor and pushes again what the
 * database lost. Nothing else would wake it: it has nothing to push, and an idle session does not
 * query a space whose stream is open. Until it has pushed them again, its status is not synced, from
 * the moment the stream ends.
 */
class RollbackUnderAnOpenStreamTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  /** Fast retries while the database restarts, and no idle polling that could find the rollback instead. */
  private static final SyncSession.Options OPTIONS = new SyncSession.Options(Duration.ofSeconds(30),
      Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofHours(1), Duration.ofHours(1),
      SyncSession.Options.DEFAULT_REFUSAL_RETRY);

  @TempDir Path dir;
  private Path data;
  private Path backup;
  private EmbeddedDatabase database;
  private final HeldCalls held = new HeldCalls();

  @BeforeEach
  void startDatabase() {
    data = dir.resolve("pgdata");
    backup = dir.resolve("pgdata-backup");
    database = EmbeddedDatabase.start(data, 0);
  }

  @AfterEach
  void stopDatabase() {
    database.close();
  }

  @Test
  void aReplicaWhoseWatchEndsRolledBackPushesAgainWhatTheRestoreLost() throws Exception {
    afterFiveBlocksOfWhichTheBackupHoldsThree((alice, session, feed, server) -> {
      restoreTheBackup();
      assertPushedAgain(alice, session, feed, server);
    });
  }

  @Test
  void theStatusLeavesSyncedWhenTheWatchEndsNotOnlyWhenTheRepairIsDone() throws Exception {
    afterFiveBlocksOfWhichTheBackupHoldsThree((alice, session, feed, server) -> {
      // The replica's first Query after its stream ends, the one that finds the rollback, is held.
      held.holdQueryAfter(0);
      restoreTheBackup();

      held.awaitQueryHeld(Duration.ofSeconds(60));
      SyncStatus whileHeld = session.status();
      held.release();
      assertEquals(SyncStatus.State.SYNCING, whileHeld.state(),
          "the stream ended and the repair is held: " + whileHeld);
      assertPushedAgain(alice, session, feed, server);
    });
  }

  /** What a test does once alice follows her feed live, synced. */
  private interface Scene {
    void play(Replica alice, SyncSession session, FeedId feed, Authority server) throws Exception;
  }

  /**
   * Alice syncs three blocks, the database is backed up, she syncs two more (the authority holds
   * five), then {@code scene} plays while her session still runs.
   */
  private void afterFiveBlocksOfWhichTheBackupHoldsThree(Scene scene) throws Exception {
    try (Authority server = new Authority(database.url("postgres"), held); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      try (SyncSession session = alice.connect(server.channel, OPTIONS)) {
        appendAndSync(alice, session, feed, 3);
        restartAfter(() -> EmbeddedDatabase.copyData(data, backup));
        appendAndSync(alice, session, feed, 2);
        assertEquals(5, highestPosition(server.blocking()));
        scene.play(alice, session, feed, server);
      }
    }
  }

  /** The replica pushes again what the restore lost, then is synced, with all its five blocks positioned. */
  private static void assertPushedAgain(Replica alice, SyncSession session, FeedId feed, Authority server)
      throws InterruptedException {
    Await.until("the database holds the replica's five blocks again", Duration.ofSeconds(60),
        () -> highestPosition(server.blocking()) == 5);
    assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
    List<Block> blocks = alice.read(SPACE, feed);
    assertEquals(5, blocks.size());
    assertTrue(blocks.stream().allMatch(Block::isPositioned));
  }

  /** Puts the backup in place of the database: positions 4 and 5 are gone. */
  private void restoreTheBackup() {
    restartAfter(() -> {
      EmbeddedDatabase.deleteData(data);
      EmbeddedDatabase.copyData(backup, data);
    });
  }

  /** Stops the database, does {@code work} on its files, starts it again on the same port. */
  private void restartAfter(Runnable work) {
    int port = database.port();
    database.close();
    work.run();
    database = EmbeddedDatabase.start(data, port);
  }

  /** A feed server over PostgreSQL on loopback whose calls {@link HeldCalls} may hold back. */
  private static final class Authority implements AutoCloseable {
    final PostgresStore store;
    final FeedServer server;
    final ManagedChannel channel;

    Authority(String url, HeldCalls held) throws IOException {
      store = PostgresStore.open(EmbeddedDatabase.settings(url));
      server = FeedServer.newBuilder(store).settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build())
          .serverBuilder(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).intercept(held))
          .build().start();
      channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(), InsecureChannelCredentials.create())
          .build();
    }

    FeedSyncGrpc.FeedSyncBlockingStub blocking() {
      return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
      channel.shutdownNow();
      server.close();
      store.close();
    }
  }

  private static void appendAndSync(Replica replica, SyncSession session, FeedId feed, int count)
      throws InterruptedException {
    for (int i = 0; i < count; i++) {
      replica.append(SPACE, feed, BlockData.utf8("block " + i));
    }
    assertTrue(session.awaitSynced(Duration.ofSeconds(60)), "synced: " + session.status());
  }

  /** The database's highest position in the space, or -1 while the server cannot read it. */
  private static long highestPosition(FeedSyncGrpc.FeedSyncBlockingStub authority) {
    try {
      return authority.query(QueryRequest.newBuilder().setSpaceId(SPACE.value()).build()).getMaxPosition();
    } catch (io.grpc.StatusRuntimeException e) {
      return -1;
    }
  }
}
