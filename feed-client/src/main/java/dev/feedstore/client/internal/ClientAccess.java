package dev.feedstore.client.internal;

import dev.feedstore.client.Appender;
import dev.feedstore.client.DurableConsumers;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.sqlite.SqliteSettings;
import io.grpc.Channel;

/**
 * What the library's other packages reach in the API package that users do not: sessions,
 * consumers and appenders over a gRPC channel for {@code dev.feedstore.client.grpc}, and, for tests
 * and tools, a space's steppable sync and the replica's SQLite settings. The API package keeps these
 * package-private; its one implementation, {@value #IMPLEMENTATION}, installs itself when {@link
 * #get()} first loads it by name, so that this package names only the API's types and never the
 * class that implements it. The module does not export this package. Thread-safe.
 */
public abstract class ClientAccess {
  /** The API package's implementation, which installs itself when loaded. */
  static final String IMPLEMENTATION = "dev.feedstore.client.ApiAccess";

  private static volatile ClientAccess installed;

  /**
   * Installs the API package's implementation, once.
   *
   * @throws IllegalStateException if one is installed already
   */
  public static synchronized void install(ClientAccess access) {
    if (installed != null) {
      throw new IllegalStateException("the client's access is installed already");
    }
    installed = access;
  }

  /** The API package's implementation, loading it (it installs itself) if need be. */
  public static ClientAccess get() {
    ClientAccess access = installed;
    if (access == null) {
      try {
        Class.forName(IMPLEMENTATION, true, ClientAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("the client library is incomplete: " + e.getMessage(), e);
      }
      access = installed;
    }
    return access;
  }

  /** As {@link Replica#connect(String, dev.feedstore.client.ConnectOptions)}, over the caller's {@code channel}. */
  public abstract SyncSession connect(Replica replica, Channel channel, SyncSession.Options options);

  /** Consumers of the authority behind {@code channel}, which stays the caller's. */
  public abstract DurableConsumers.Builder consumers(Channel channel);

  /** An appender to the authority behind {@code channel}, which stays the caller's. */
  public abstract Appender.Builder appender(Channel channel);

  /** The steppable sync of {@code space}: push and pull one step at a time, with no session open. */
  public abstract SpaceSync sync(Replica replica, SpaceId space);

  /** Sets the SQLite settings of the replica {@code builder} opens. */
  public abstract Replica.Builder sqlite(Replica.Builder builder, SqliteSettings settings);
}
