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
 * @param expiresAtMillis when it expires, in Unix milliseconds
 */
public record Subscription(String id, SpaceId spaceId, Scope.Selection scope, long expiresAtMillis) {
  public Subscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
  }

  public boolean isExpiredAt(long nowMillis) {
    return expiresAtMillis <= nowMillis;
  }

  public Subscription withExpiry(long newExpiresAtMillis) {
    return new Subscription(id, spaceId, scope, newExpiresAtMillis);
  }
}
