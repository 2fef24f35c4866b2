package dev.feedstore.server.internal.authority;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.store.Subscription;
import java.util.List;
import java.util.Objects;

/**
 * The durable subscriptions of a space, read in one snapshot with its highest position.
 *
 * @param subscriptions by id, expired ones while they are remembered
 * @param maxPosition the space's highest position; a subscription's lag is this minus its acknowledged position
 * @param token the space's server token
 * @param nowMillis when it was read: a subscription that expires at or before it is expired
 */
public record DurableList(List<Subscription> subscriptions, long maxPosition, ServerToken token, long nowMillis) {
  public DurableList {
    subscriptions = List.copyOf(subscriptions);
    Objects.requireNonNull(token, "token");
  }
}
