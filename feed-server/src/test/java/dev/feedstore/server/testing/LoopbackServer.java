package dev.feedstore.server.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A real feed server (the feed-server over a SQLite file) on a socket on 127.0.0.1 whose port stays
 * the same across {@link #stop} and {@link #start}, so that clients reach every incarnation, as they
 * would reach a restarted production server. A start reads the access-token file, if any, again.
 * Not thread-safe.
 */
public final class LoopbackServer implements AutoCloseable {
  private final Path file;
  private final ServerSettings settings;
  private final Optional<Path> accessTokens;
  private int port;
  private SqliteFeedStore store;
  private FeedServer server;

  /** Starts a server on {@code dir/authority.db} with {@code settings}, requiring tokens when a file is given. */
  public LoopbackServer(Path dir, ServerSettings settings, Optional<Path> accessTokens) {
    this.file = dir.resolve("authority.db");
    this.settings = settings;
    this.accessTokens = accessTokens;
    start();
  }

  public LoopbackServer(Path dir, ServerSettings settings) {
    this(dir, settings, Optional.empty());
  }

  public LoopbackServer(Path dir) {
    this(dir, ServerSettings.DEFAULTS);
  }

  /** {@code 127.0.0.1:PORT}. */
  public String target() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The server's store while it runs. */
  public SqliteFeedStore store() {
    return store;
  }

  /** Every block the server holds in {@code space}, by position. */
  public List<Block> blocks(SpaceId space) {
    return store.read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, Integer.MAX_VALUE));
  }

  /** A new plain-text channel to the server's address; the caller shuts it down. */
  public ManagedChannel newChannel() {
    return Grpc.newChannelBuilder(target(), InsecureChannelCredentials.create()).build();
  }

  public void start() {
    if (server != null) {
      return;
    }
    store = SqliteFeedStore.open(file);
    try {
      FeedServer.Builder builder = FeedServer.newBuilder(store).settings(settings).address("127.0.0.1", port);
      if (accessTokens.isPresent()) {
        builder.accessTokens(AccessTokens.read(accessTokens.get()));
      }
      server = builder.build().start();
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

  /** Stops and starts again on the same port and file. */
  public void restart() {
    stop();
    start();
  }

  @Override
  public void close() {
    stop();
  }
}
