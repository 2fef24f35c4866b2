package dev.feedstore.cli;

import dev.feedstore.server.FeedServer;
import dev.feedstore.server.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A real feed server for feedctl's tests: the feed-server over a SQLite file, on a free loopback
 * port, reached as feedctl reaches it ({@code --server 127.0.0.1:PORT}). Not thread-safe.
 */
final class LocalServer implements AutoCloseable {
  final Path file;
  final SqliteFeedStore store;
  private final FeedServer server;

  LocalServer(Path dir) {
    this(dir, ServerSettings.DEFAULTS);
  }

  LocalServer(Path dir, ServerSettings settings) {
    this.file = dir.resolve("feeds.db");
    this.store = SqliteFeedStore.open(file);
    try {
      this.server = FeedServer.newBuilder(store).settings(settings).address("127.0.0.1", 0).build().start();
    } catch (IOException e) {
      store.close();
      throw new UncheckedIOException(e);
    }
  }

  /** The value of feedctl's {@code --server}. */
  String address() {
    return "127.0.0.1:" + server.port();
  }

  /** Shuts the server down (open Watch streams end with UNAVAILABLE); idempotent. */
  void stop() {
    server.close();
  }

  @Override
  public void close() {
    server.close();
    store.close();
  }
}
