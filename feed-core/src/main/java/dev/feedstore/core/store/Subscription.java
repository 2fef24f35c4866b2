package dev.feedstore.core.store;

import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.util.Objects;

/**
 * A stored scope that queries and watches can name by id.
 *
 * @param id the id handed to the subscriber
 * @param spaceId the space it reads
 * @param scope the feeds and namespaces it covers
 * @param ttlMillis how far each use moves the expiry ahead (sliding expiry)
 * @param expiresAtMillis when it expires, in Unix milliseconds
 */
public record Subscription(String id, SpaceId spaceId, Scope.Selection scope, long ttlMillis, long expiresAtMillis) {
  public Subscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    if (ttlMillis <= 0) {
      throw new IllegalArgumentException("ttlMillis must be > 0, was " + ttlMillis);
    }
  }

  public boolean isExpiredAt(long nowMillis) {
    return expiresAtMillis <= nowMillis;
  }

  public Subscription withExpiry(long newExpiresAtMillis) {
    return new Subscription(id, spaceId, scope, ttlMillis, newExpiresAtMillis);
  }
}
