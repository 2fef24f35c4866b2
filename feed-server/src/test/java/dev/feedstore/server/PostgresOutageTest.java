package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.HealthChecks;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose PostgreSQL goes away: appends fail with UNAVAILABLE naming the database (retry
 * later, or on another server), health turns NOT_SERVING (and for reads too once a read fails), and
 * when the database is back the same process serves again by itself, with nothing lost.
 */
class PostgresOutageTest {
  @TempDir Path dir;

  @Test
  void aLostDatabaseIsUnavailableUntilItComesBack() throws Exception {
    Path data = dir.resolve("pgdata");
    EmbeddedDatabase database = EmbeddedDatabase.start(data, 0);
    int port = database.port();
    FeedId feed = TestBlocks.feedId();
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WRITE_PROBE_MS, 100).build();
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(database.url("postgres")));
        FeedServer server = FeedServer.newBuilder(store).settings(settings).address("127.0.0.1", 0).build().start()) {
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel)
            .withDeadlineAfter(30, TimeUnit.SECONDS);
        assertEquals(List.of(1L), stub.append(Wire.append("s", Wire.block(feed, "a", 0))).getPositionsList());
        HealthChecks.await(channel, ServingStatus.SERVING);

        database.close();
        StatusRuntimeException down = assertThrows(StatusRuntimeException.class,
            () -> FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .append(Wire.append("s", Wire.block(feed, "a", 1))));
        assertEquals(Status.Code.UNAVAILABLE, down.getStatus().getCode(), String.valueOf(down.getStatus()));
        assertTrue(down.getStatus().getDescription().contains("cannot reach its database postgres; retry later, or on"
            + " another server"), down.getStatus().getDescription());
        HealthChecks.await(channel, ServingStatus.NOT_SERVING);
        HealthChecks.awaitReads(channel, ServingStatus.SERVING); // no read failed yet
        StatusRuntimeException read = assertThrows(StatusRuntimeException.class,
            () -> FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .query(QueryRequest.newBuilder().setSpaceId("s").build()));
        assertEquals(Status.Code.UNAVAILABLE, read.getStatus().getCode(), String.valueOf(read.getStatus()));
        HealthChecks.awaitReads(channel, ServingStatus.NOT_SERVING);

        database = EmbeddedDatabase.start(data, port);
        HealthChecks.await(channel, ServingStatus.SERVING);
        HealthChecks.awaitReads(channel, ServingStatus.SERVING);
        Await.until("appends succeed again", Duration.ofSeconds(30), () -> {
          try {
            return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                .append(Wire.append("s", Wire.block(feed, "a", 1))).getPositions(0) == 2;
          } catch (StatusRuntimeException e) {
            return false;
          }
        });
      } finally {
        channel.shutdownNow();
        database.close();
      }
    }
  }
}
