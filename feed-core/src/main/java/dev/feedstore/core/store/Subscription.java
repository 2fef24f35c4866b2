package dev.feedstore.core.store;

import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;

/**
 * A stored scope that queries and watches can name by id. Immutable.
 *
 * @param id the id handed to the subscriber
 * @param spaceId the space it reads
 * @param scope the feeds and namespaces it covers
 * @param ttlMillis how far each use moves the expiry ahead (sliding expiry); for a durable one, how
 *     far each acknowledgement moves it (its {@code ack_within_ms})
 * @param expiresAtMillis when it expires, in Unix milliseconds
 * @param durable its acknowledged position and name, if it is durable; {@link #NOT_DURABLE} if not
 */
public record Subscription(String id, SpaceId spaceId, Scope.Selection scope, long ttlMillis, long expiresAtMillis,
    Optional<Durable> durable) {
  /** The {@code durable} of a subscription that keeps no acknowledged position. */
  public static final Optional<Durable> NOT_DURABLE = Optional.empty();

  /**
   * What a durable subscription keeps.
   *
   * @param name the name the client chose, if any (unique among the space's durable subscriptions)
   * @param acked the acknowledged position: every block at or below it is processed (0: none)
   */
  public record Durable(Optional<String> name, long acked) {
    /**
     * What a durable subscription named {@code name} (empty: unnamed) keeps, acknowledged up to {@code acked}.
     *
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code acked} is negative
     */
    public Durable {
      Objects.requireNonNull(name, "name");
      if (acked < 0) {
        throw new IllegalArgumentException("acked must be >= 0, was " + acked);
      }
    }
  }

  /**
   * A subscription with every part given.
   *
   * @throws NullPointerException if {@code id}, {@code spaceId}, {@code scope} or {@code durable} is null
   * @throws IllegalArgumentException if {@code ttlMillis} is not positive
   */
  public Subscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(durable, "durable");
    if (ttlMillis <= 0) {
      throw new IllegalArgumentException("ttlMillis must be > 0, was " + ttlMillis);
    }
  }

  /** A subscription that is not durable. */
  public Subscription(String id, SpaceId spaceId, Scope.Selection scope, long ttlMillis, long expiresAtMillis) {
    this(id, spaceId, scope, ttlMillis, expiresAtMillis, NOT_DURABLE);
  }

  /** True when its expiry is at or before {@code nowMillis} (Unix milliseconds). */
  public boolean isExpiredAt(long nowMillis) {
    return expiresAtMillis <= nowMillis;
  }

  /** True when it keeps an acknowledged position. */
  public boolean isDurable() {
    return durable.isPresent();
  }

  /** The same subscription expiring at {@code newExpiresAtMillis} (Unix milliseconds). */
  public Subscription withExpiry(long newExpiresAtMillis) {
    return new Subscription(id, spaceId, scope, ttlMillis, newExpiresAtMillis, durable);
  }
}
