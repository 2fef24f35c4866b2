package dev.feedstore.server.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.FeedServer;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.DatabaseFiles;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A real feed server (the feed-server over the SQLite file {@code dir/authority.db}) whose address
 * outlives its incarnations, so that clients reach each one as they reach a production server that
 * was restarted, restored from a backup or replaced: {@link #stop} and {@link #start}, {@link
 * #restoreFrom} a {@link #snapshot} (a rollback: the same token, older data), {@link #wipe} (a swap:
 * a new token, no data). It is reached in-process, under a name, or over loopback, on a port of
 * 127.0.0.1 kept from its first start. Every start configures a new {@link FeedServer.Builder} with
 * the function it was given (settings, TLS, access tokens, HTTP), so that what that function reads
 * from a file, it reads again. Not thread-safe.
 */
public final class RestartableServer implements AutoCloseable {
  private final Path dir;
  private final Path file;
  private final Consumer<FeedServer.Builder> configure;
  /** The in-process name, or null over loopback. */
  private final String name;
  private int port;
  private ManagedChannel channel;
  private SqliteFeedStore store;
  private FeedServer server;
  private int snapshots;

  private RestartableServer(Path dir, Consumer<FeedServer.Builder> configure, String name) {
    this.dir = dir;
    this.file = dir.resolve("authority.db");
    this.configure = configure;
    this.name = name;
    start();
  }

  /** A server with the defaults, reached in-process; started. */
  public static RestartableServer inProcess(Path dir) {
    return inProcess(dir, builder -> {});
  }

  /** A server configured by {@code configure} at every start, reached in-process; started. */
  public static RestartableServer inProcess(Path dir, Consumer<FeedServer.Builder> configure) {
    return new RestartableServer(dir, configure, InProcessServerBuilder.generateName());
  }

  /** A server with the defaults on a free port of 127.0.0.1; started. */
  public static RestartableServer loopback(Path dir) {
    return loopback(dir, builder -> {});
  }

  /** A server configured by {@code configure} at every start, on a free port of 127.0.0.1; started. */
  public static RestartableServer loopback(Path dir, Consumer<FeedServer.Builder> configure) {
    return new RestartableServer(dir, configure, null);
  }

  /**
   * A channel to the server that reaches every incarnation (plain text: a server configured with
   * TLS needs a channel of the caller's own). {@link #close} shuts it down.
   */
  public ManagedChannel channel() {
    if (channel == null) {
      channel = newChannel();
    }
    return channel;
  }

  /** A new plain-text channel to the server's address; the caller shuts it down. */
  public ManagedChannel newChannel() {
    return name != null
        ? InProcessChannelBuilder.forName(name).build()
        : Grpc.newChannelBuilder(address(), InsecureChannelCredentials.create()).build();
  }

  /**
   * {@code 127.0.0.1:PORT}, the address clients give.
   *
   * @throws IllegalStateException if the server is reached in-process
   */
  public String address() {
    return "127.0.0.1:" + port();
  }

  /**
   * The gRPC port, the same in every incarnation.
   *
   * @throws IllegalStateException if the server is reached in-process
   */
  public int port() {
    if (name != null) {
      throw new IllegalStateException("this server is reached in-process (" + name + "), not over a port: "
          + "make it with RestartableServer.loopback");
    }
    return port;
  }

  /**
   * The port of the running incarnation's HTTP API, when the configuration asked for one (a new one
   * after each restart).
   */
  public int httpPort() {
    return running().httpPort();
  }

  /** The server's SQLite file. */
  public Path file() {
    return file;
  }

  /** The running incarnation's store, to check what the server holds. */
  public SqliteFeedStore store() {
    running();
    return store;
  }

  /** Every block the server holds in {@code space}, by position. */
  public List<Block> blocks(SpaceId space) {
    return store().read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, Integer.MAX_VALUE));
  }

  public boolean isRunning() {
    return server != null;
  }

  /** Starts an incarnation on the file, at the same address; nothing if one runs. */
  public void start() {
    if (server != null) {
      return;
    }
    store = SqliteFeedStore.open(file);
    try {
      FeedServer.Builder builder = FeedServer.newBuilder(store);
      configure.accept(builder);
      if (name != null) {
        builder.serverBuilder(InProcessServerBuilder.forName(name));
      } else {
        builder.address("127.0.0.1", port);
      }
      server = builder.build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (server == null) {
        store.close();
        store = null;
      }
    }
    port = server.port();
    if (channel != null) {
      channel.resetConnectBackoff(); // the next call reaches the new incarnation at once
    }
  }

  /** Shuts the running incarnation down gracefully and closes its file; nothing if none runs. */
  public void stop() {
    if (server == null) {
      return;
    }
    server.close();
    store.close();
    server = null;
    store = null;
  }

  /** Stops and starts again on the same file and address. */
  public void restart() {
    stop();
    start();
  }

  /** A consistent copy of the server's file as it is now, taken while it runs. */
  public Path snapshot() {
    Path copy = dir.resolve("snapshot-" + (++snapshots) + ".db");
    store().backupTo(copy);
    return copy;
  }

  /** Stops, puts {@code copy} in place of the file (a rollback, or a restore: same token, older data), starts. */
  public void restoreFrom(Path copy) {
    stop();
    DatabaseFiles.replace(file, copy);
    start();
  }

  /** Stops, deletes the file, starts on a new empty one (a swap: new token, no data). */
  public void wipe() {
    stop();
    DatabaseFiles.delete(file);
    start();
  }

  /** Stops the server and shuts down {@link #channel()}. */
  @Override
  public void close() {
    stop();
    if (channel != null) {
      channel.shutdownNow();
    }
  }

  private FeedServer running() {
    if (server == null) {
      throw new IllegalStateException("the server is stopped; start it first");
    }
    return server;
  }
}
