package dev.feedstore.client.grpc;

import dev.feedstore.client.Appender;
import dev.feedstore.client.DurableConsumers;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.internal.ClientAccess;
import io.grpc.Channel;
import java.util.Objects;

/**
 * The library over a gRPC {@link Channel} of the application's own, for a program that builds its
 * channels itself (an in-process server in tests, interceptors, a name resolver, a load balancer).
 * The channel stays the caller's to shut down. Give it a {@link BearerToken} for an authority that
 * wants access tokens. Most programs need none of this: {@link Replica#connect(String,
 * dev.feedstore.client.ConnectOptions)}, {@link DurableConsumers#newBuilder(String,
 * dev.feedstore.client.ConnectOptions)} and {@link Appender#newBuilder(String,
 * dev.feedstore.client.ConnectOptions)} build the channel. Stateless and thread-safe.
 */
public final class AuthorityChannel {
  private AuthorityChannel() {
  }

  /**
   * Starts syncing {@code replica} with the authority behind {@code channel}, with default options.
   *
   * @throws IllegalStateException if the replica has a session open
   */
  public static SyncSession connect(Replica replica, Channel channel) {
    return connect(replica, channel, SyncSession.Options.DEFAULTS);
  }

  /**
   * Starts syncing {@code replica} with the authority behind {@code channel}. One session per replica
   * at a time.
   *
   * @throws IllegalStateException if the replica has a session open
   */
  public static SyncSession connect(Replica replica, Channel channel, SyncSession.Options options) {
    Objects.requireNonNull(replica, "replica");
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(options, "options");
    return ClientAccess.get().connect(replica, channel, options);
  }

  /** Durable consumers of the authority behind {@code channel}. */
  public static DurableConsumers.Builder consumers(Channel channel) {
    return ClientAccess.get().consumers(Objects.requireNonNull(channel, "channel"));
  }

  /** An appender to the authority behind {@code channel}: {@link Appender#close()} leaves the channel open. */
  public static Appender.Builder appender(Channel channel) {
    return ClientAccess.get().appender(Objects.requireNonNull(channel, "channel"));
  }
}
