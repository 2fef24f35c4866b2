package dev.feedstore.server.internal;

import dev.feedstore.core.SpaceId;

/**
 * A request named a subscription that is unknown in its space, or expired. The caller subscribes
 * again.
 */
public final class SubscriptionNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String subscriptionId;

  public SubscriptionNotFoundException(String subscriptionId, SpaceId spaceId, String why) {
    super("subscription '" + subscriptionId + "' " + why + " in space " + spaceId
        + "; subscribe again (Subscribe) and use the new subscription_id");
    this.subscriptionId = subscriptionId;
  }

  public String subscriptionId() {
    return subscriptionId;
  }
}
