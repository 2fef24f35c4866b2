package dev.feedstore.core.store;

import java.util.Optional;

/** The authority's stored subscriptions. */
public interface Subscriptions {

  /** Stores a new subscription; its id must be new. */
  void create(Subscription subscription);

  /** The subscription with this id, expired or not. */
  Optional<Subscription> find(String id);

  /** Moves the expiry of a subscription; returns false if it is not stored. */
  boolean setExpiry(String id, long expiresAtMillis);

  /** Deletes subscriptions that expired at or before {@code nowMillis}; returns how many. */
  int purgeExpired(long nowMillis);
}
