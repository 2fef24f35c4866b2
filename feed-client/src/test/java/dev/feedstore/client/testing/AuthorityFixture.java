package dev.feedstore.client.testing;

import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.server.FeedServer;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.ManagedChannel;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;

/**
 * A real position authority (the feed-server over a SQLite file) on an in-process transport whose
 * name survives restarts, so one channel reaches every incarnation. It can be stopped, restarted,
 * wiped (a swap) and restored from a copy of its file (a rollback). Not thread-safe.
 */
public final class AuthorityFixture implements AutoCloseable {
  private final Path dir;
  private final Path file;
  private final String name = InProcessServerBuilder.generateName();
  private final ManagedChannel channel;
  private final ServerSettings settings;
  private final boolean http;
  private final Clock clock;
  private SqliteFeedStore store;
  private FeedServer server;
  private int snapshots;

  public AuthorityFixture(Path dir) {
    this(dir, ServerSettings.DEFAULTS);
  }

  public AuthorityFixture(Path dir, ServerSettings settings) {
    this(dir, settings, false);
  }

  /** With {@code http}, every incarnation also serves the HTTP API on 127.0.0.1 and a free port ({@link #httpPort}). */
  public AuthorityFixture(Path dir, ServerSettings settings, boolean http) {
    this(dir, settings, http, Clock.systemUTC());
  }

  /** With {@code clock} as every incarnation's clock (subscription deadlines). */
  public AuthorityFixture(Path dir, ServerSettings settings, Clock clock) {
    this(dir, settings, false, clock);
  }

  private AuthorityFixture(Path dir, ServerSettings settings, boolean http, Clock clock) {
    this.dir = dir;
    this.clock = clock;
    this.file = dir.resolve("authority.db");
    this.settings = settings;
    this.http = http;
    this.channel = InProcessChannelBuilder.forName(name).build();
    start();
  }

  /** The channel to the authority; stays valid across restarts. */
  public ManagedChannel channel() {
    return channel;
  }

  /** A step-level authority over the channel, for driving sync one step at a time. */
  public GrpcAuthority authority() {
    return new GrpcAuthority(channel, Duration.ofSeconds(20), Duration.ofHours(1));
  }

  /** The authority's store, to check what it holds. */
  public FeedStore store() {
    return store;
  }

  /** The port of the running incarnation's HTTP API (a new one after each restart). */
  public int httpPort() {
    return server.httpPort();
  }

  public boolean isRunning() {
    return server != null;
  }

  public void start() {
    if (server != null) {
      return;
    }
    store = SqliteFeedStore.open(file);
    try {
      FeedServer.Builder builder = FeedServer.newBuilder(store).settings(settings).clock(clock)
          .serverBuilder(InProcessServerBuilder.forName(name));
      if (http) {
        builder.http("127.0.0.1", 0);
      }
      server = builder.build().start();
    } catch (IOException e) {
      store.close();
      throw new UncheckedIOException(e);
    }
  }

  public void stop() {
    if (server == null) {
      return;
    }
    server.close();
    store.close();
    server = null;
    store = null;
  }

  public void restart() {
    stop();
    start();
  }

  /** A consistent copy of the authority's file as it is now, taken while it runs. */
  public Path snapshot() {
    Path copy = dir.resolve("snapshot-" + (++snapshots) + ".db");
    store.backupTo(copy);
    return copy;
  }

  /** Stops, replaces the file with {@code snapshot} (a rollback: same token, older data), starts. */
  public void restoreFrom(Path snapshot) {
    stop();
    deleteFiles();
    copy(snapshot, file);
    start();
  }

  /** Stops, deletes the file, starts on a new empty one (a swap: new token, no data). */
  public void wipe() {
    stop();
    deleteFiles();
    start();
  }

  @Override
  public void close() {
    stop();
    channel.shutdownNow();
  }

  private void deleteFiles() {
    for (String suffix : new String[] {"", "-wal", "-shm"}) {
      try {
        Files.deleteIfExists(Path.of(file + suffix));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static void copy(Path from, Path to) {
    try {
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
