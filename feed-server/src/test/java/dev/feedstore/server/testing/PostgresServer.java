package dev.feedstore.server.testing;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;

import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * A feed server on a PostgreSQL database of the embedded server, over loopback, with a store of its
 * own: several of them on one database are what several processes are to the database. Close it
 * after the test; it closes its channel, server and store.
 */
public final class PostgresServer implements AutoCloseable {
  public final String url;
  public final PostgresStore store;
  public final FeedServer server;
  public final ManagedChannel channel;

  private PostgresServer(String url, PostgresStore store, FeedServer server, ManagedChannel channel) {
    this.url = url;
    this.store = store;
    this.server = server;
    this.channel = channel;
  }

  /** A fresh database of the embedded server. */
  public static String newDatabase() {
    return EmbeddedDatabase.shared().newDatabase();
  }

  /** A server on the database at {@code url}, ticking by hand as {@link TestServer}'s do. */
  public static PostgresServer on(String url) {
    return on(url, ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build(), Clock.systemUTC());
  }

  public static PostgresServer on(String url, ServerSettings settings, Clock clock) {
    return start(url, settings, clock, false);
  }

  /** A server on the database at {@code url} that also serves the HTTP API ({@link #http}). */
  public static PostgresServer withHttp(String url) {
    return start(url, ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build(), Clock.systemUTC(), true);
  }

  private static PostgresServer start(String url, ServerSettings settings, Clock clock, boolean http) {
    PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(url));
    try {
      FeedServer.Builder builder = FeedServer.newBuilder(store).settings(settings).clock(clock)
          .address("127.0.0.1", 0);
      if (http) {
        builder.http("127.0.0.1", 0);
      }
      FeedServer server = builder.build().start();
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      return new PostgresServer(url, store, server, channel);
    } catch (IOException e) {
      store.close();
      throw new UncheckedIOException(e);
    }
  }

  public FeedSyncGrpc.FeedSyncBlockingStub blocking() {
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** The HTTP API of a server started {@link #withHttp}. */
  public Http http() {
    return Http.on(server.httpPort());
  }

  public FeedSyncGrpc.FeedSyncStub async() {
    return FeedSyncGrpc.newStub(channel);
  }

  @Override
  public void close() {
    channel.shutdownNow();
    server.close();
    store.close();
  }
}
