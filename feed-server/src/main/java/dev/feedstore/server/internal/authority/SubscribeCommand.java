package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A validated Subscribe.
 *
 * @param spaceId the space
 * @param scope at least one feed or namespace
 * @param ttlMillis the requested TTL (a durable one's {@code ack_within_ms}), empty for the default
 * @param durable whether it keeps an acknowledged position
 * @param name a durable one's name, chosen by the client
 */
public record SubscribeCommand(SpaceId spaceId, Scope.Selection scope, OptionalLong ttlMillis, boolean durable,
    Optional<String> name) {
  public SubscribeCommand {
    Objects.requireNonNull(name, "name");
    if (name.isPresent() && !durable) {
      throw new IllegalArgumentException("only a durable subscription has a name");
    }
  }

  /** A subscription that is not durable. */
  public SubscribeCommand(SpaceId spaceId, Scope.Selection scope, OptionalLong ttlMillis) {
    this(spaceId, scope, ttlMillis, false, Optional.empty());
  }
}
