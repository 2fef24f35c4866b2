package dev.feedstore.server.internal.errors;

import dev.feedstore.core.SpaceId;
import java.util.Objects;

/**
 * A request named a subscription that is unknown in its space, or expired. The caller subscribes
 * again. The {@link Reason} tells the two apart, for programs (gRPC: a {@code google.rpc.ErrorInfo}
 * detail).
 */
public final class SubscriptionNotFoundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a subscription was not found; the name is the machine-readable reason on the wire. */
  public enum Reason {
    /** Never handed out in this space, or forgotten long after it expired. */
    SUBSCRIPTION_UNKNOWN,
    /** It expired (a durable one: not acknowledged within its deadline) and holds nothing now. */
    SUBSCRIPTION_EXPIRED
  }

  private final String subscriptionId;
  private final Reason reason;

  public SubscriptionNotFoundException(String subscriptionId, SpaceId spaceId, Reason reason, String why) {
    super("subscription '" + subscriptionId + "' " + why + " in space " + spaceId
        + "; subscribe again (Subscribe) and use the new subscription_id");
    this.subscriptionId = subscriptionId;
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public String subscriptionId() {
    return subscriptionId;
  }

  public Reason reason() {
    return reason;
  }
}
