package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica following a space live through a server over PostgreSQL, when the database is restored
 * from an older copy under them: the server ends the replica's Watch (the history went back), and
 * the replica connects again at once, finds the rollback from its cursor and pushes again what the
 * database lost. Nothing else would wake it: it has nothing to push, and an idle session does not
 * query a space whose stream is open.
 */
class RollbackUnderAnOpenStreamTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  /** Fast retries while the database restarts, and no idle polling that could find the rollback instead. */
  private static final SyncSession.Options OPTIONS = new SyncSession.Options(Duration.ofSeconds(30),
      Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofHours(1), Duration.ofHours(1),
      SyncSession.Options.DEFAULT_REFUSAL_RETRY);

  @TempDir Path dir;

  @Test
  void aReplicaWhoseWatchEndsRolledBackPushesAgainWhatTheRestoreLost() throws InterruptedException {
    Path data = dir.resolve("pgdata");
    Path backup = dir.resolve("pgdata-backup");
    EmbeddedDatabase database = EmbeddedDatabase.start(data, 0);
    int port = database.port();
    try (PostgresServer server = PostgresServer.on(database.url("postgres")); Replicas replicas = new Replicas(dir)) {
      Replica alice = replicas.open("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      try (SyncSession session = alice.connect(server.channel, OPTIONS)) {
        appendAndSync(alice, session, feed, 3);
        database.close();
        EmbeddedDatabase.copyData(data, backup);
        database = EmbeddedDatabase.start(data, port);
        appendAndSync(alice, session, feed, 2);
        assertEquals(5, highestPosition(server));

        database.close();
        EmbeddedDatabase.deleteData(data);
        EmbeddedDatabase.copyData(backup, data); // the restore: positions 4 and 5 are gone
        database = EmbeddedDatabase.start(data, port);

        Await.until("the database holds the replica's five blocks again", Duration.ofSeconds(60),
            () -> highestPosition(server) == 5);
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
        List<Block> held = alice.read(SPACE, feed);
        assertEquals(5, held.size());
        assertTrue(held.stream().allMatch(Block::isPositioned));
      }
    } finally {
      database.close();
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
  private static long highestPosition(PostgresServer server) {
    try {
      return server.blocking().query(QueryRequest.newBuilder().setSpaceId(SPACE.value()).build()).getMaxPosition();
    } catch (io.grpc.StatusRuntimeException e) {
      return -1;
    }
  }
}
