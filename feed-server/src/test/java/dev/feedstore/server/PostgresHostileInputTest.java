package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.PostgresServer;
import io.grpc.ManagedChannel;

/**
 * The hostile-input sweep of {@link HostileInputTest}, every case, against a server on PostgreSQL:
 * the same statuses and descriptions, nothing written to the database (row for row), and the next
 * good Append gets the next position.
 */
class PostgresHostileInputTest extends HostileInputTest {
  private PostgresServer postgres;

  @Override
  void startServer() {
    postgres = PostgresServer.on(PostgresServer.newDatabase(),
        dev.feedstore.server.settings.ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build(), clock);
  }

  @Override
  ManagedChannel channel() {
    return postgres.channel;
  }

  @Override
  FeedSyncGrpc.FeedSyncBlockingStub blocking() {
    return postgres.blocking();
  }

  @Override
  Census census() {
    return Census.ofPostgres(postgres.url);
  }

  @Override
  @org.junit.jupiter.api.AfterAll
  void stop() {
    if (postgres != null) {
      postgres.close();
    }
  }
}
