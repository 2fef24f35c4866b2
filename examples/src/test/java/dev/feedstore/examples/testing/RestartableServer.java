package dev.feedstore.examples.testing;

import dev.feedstore.server.FeedServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A real feed server (the feed-server over a SQLite file) on a loopback port that stays the same
 * across {@link #stop} and {@link #start}, so that clients' channels reach every incarnation, as
 * they would reach a restarted production server. Not thread-safe.
 */
public final class RestartableServer implements AutoCloseable {
  private final Path file;
  private int port;
  private SqliteFeedStore store;
  private FeedServer server;

  public RestartableServer(Path dir) {
    this.file = dir.resolve("authority.db");
    start();
  }

  public void start() {
    if (server != null) {
      return;
    }
    store = SqliteFeedStore.open(file);
    try {
      server = FeedServer.newBuilder(store).address("127.0.0.1", port).build().start();
    } catch (IOException e) {
      store.close();
      store = null;
      throw new UncheckedIOException(e);
    }
    port = server.port();
  }

  /** Shuts the server down gracefully and closes its file. */
  public void stop() {
    if (server == null) {
      return;
    }
    server.close();
    store.close();
    server = null;
    store = null;
  }

  public SqliteFeedStore store() {
    return store;
  }

  /** A new plain-text channel to the server's address; the caller shuts it down. */
  public ManagedChannel newChannel() {
    return Grpc.newChannelBuilder("127.0.0.1:" + port, InsecureChannelCredentials.create()).build();
  }

  @Override
  public void close() {
    stop();
  }
}
