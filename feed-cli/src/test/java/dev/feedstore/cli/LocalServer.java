package dev.feedstore.cli;

import dev.feedstore.core.testing.TestCertificates;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A real feed server for feedctl's tests: the feed-server over a SQLite file, on a free loopback
 * port that stays the same when it is stopped and started again, reached as feedctl reaches it
 * ({@code --server 127.0.0.1:PORT}). Not thread-safe.
 */
final class LocalServer implements AutoCloseable {
  final Path file;
  private final ServerSettings settings;
  private final TestCertificates.Pem tls;
  private int port;
  SqliteFeedStore store;
  private FeedServer server;

  LocalServer(Path dir) {
    this(dir, ServerSettings.DEFAULTS);
  }

  LocalServer(Path dir, ServerSettings settings) {
    this(dir, settings, null);
  }

  /** A server that speaks TLS with {@code tls} instead of plain text. */
  LocalServer(Path dir, ServerSettings settings, TestCertificates.Pem tls) {
    this.file = dir.resolve("feeds.db");
    this.settings = settings;
    this.tls = tls;
    start();
  }

  /** The value of feedctl's {@code --server}. */
  String address() {
    return "127.0.0.1:" + port;
  }

  /** Starts the server on its port (a free one the first time); idempotent. */
  void start() {
    if (server != null) {
      return;
    }
    store = SqliteFeedStore.open(file);
    try {
      FeedServer.Builder builder = FeedServer.newBuilder(store).settings(settings).address("127.0.0.1", port);
      if (tls != null) {
        builder.tls(tls.certificate(), tls.privateKey());
      }
      server = builder.build().start();
    } catch (IOException e) {
      store.close();
      throw new UncheckedIOException(e);
    }
    port = server.port();
  }

  /** Shuts the server down (open Watch streams end with UNAVAILABLE) and closes its file; idempotent. */
  void stop() {
    if (server != null) {
      server.close();
      store.close();
      server = null;
    }
  }

  /** Stops, puts {@code backup} in place of the file (a restore: same token, older data), starts. */
  void restoreFrom(Path backup) throws IOException {
    stop();
    for (String suffix : new String[] {"-wal", "-shm"}) {
      Files.deleteIfExists(Path.of(file + suffix));
    }
    Files.copy(backup, file, StandardCopyOption.REPLACE_EXISTING);
    start();
  }

  @Override
  public void close() {
    stop();
  }
}
