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

  /**
   * How many subscriptions of the space expire after {@code nowMillis}. In a write transaction, the
   * count holds until it ends: a subscription created by another transaction meanwhile (in another
   * process too) is either counted or waits for this one, so a limit checked on it holds.
   */
  long countUnexpired(dev.feedstore.core.SpaceId spaceId, long nowMillis);

  /** Deletes subscriptions that expired at or before {@code nowMillis}; returns how many. */
  int purgeExpired(long nowMillis);
}
