package dev.feedstore.client;

import dev.feedstore.client.internal.ClientAccess;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.sqlite.SqliteSettings;
import io.grpc.Channel;

/**
 * The API package's side of {@link ClientAccess}: what the library's other packages and its tests
 * reach here that users do not. {@link ClientAccess#get()} loads this class by name, which installs
 * it; no class of this package names it, so that the dependencies run one way: this class on the
 * API and on {@code internal}, never {@code internal} back on the class that implements it.
 * Stateless and thread-safe.
 */
final class ApiAccess extends ClientAccess {
  static {
    ClientAccess.install(new ApiAccess());
  }

  private ApiAccess() {
  }

  @Override
  public SyncSession connect(Replica replica, Channel channel, SyncSession.Options options) {
    return replica.connect(channel, options);
  }

  @Override
  public DurableConsumers.Builder consumers(Channel channel) {
    return DurableConsumers.newBuilder(channel);
  }

  @Override
  public Appender.Builder appender(Channel channel) {
    return Appender.newBuilder(channel);
  }

  @Override
  public SpaceSync sync(Replica replica, SpaceId space) {
    return replica.sync(space);
  }

  @Override
  public Replica.Builder sqlite(Replica.Builder builder, SqliteSettings settings) {
    return builder.sqlite(settings);
  }
}
