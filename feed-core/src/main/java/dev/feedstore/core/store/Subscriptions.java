package dev.feedstore.core.store;

import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** The authority's stored subscriptions. */
public interface Subscriptions {

  /** Stores a new subscription; its id (and a durable one's name in its space) must be new. */
  void create(Subscription subscription);

  /** The subscription with this id, expired or not. */
  Optional<Subscription> find(String id);

  /** The durable subscription of the space with this name, expired or not. */
  Optional<Subscription> findDurable(SpaceId spaceId, String name);

  /** The durable subscriptions of the space, expired or not, by id. */
  List<Subscription> durables(SpaceId spaceId);

  /** Deletes a subscription; returns false if it is not stored. */
  boolean delete(String id);

  /** Moves the expiry of a subscription; returns false if it is not stored. */
  boolean setExpiry(String id, long expiresAtMillis);

  /**
   * Acknowledges a durable subscription: its acknowledged position becomes the greater of the stored
   * one and {@code upTo}, and its expiry {@code expiresAtMillis}. Returns false if no durable
   * subscription has this id.
   */
  boolean ack(String id, long upTo, long expiresAtMillis);

  /**
   * The lowest acknowledged position of the space's durable subscriptions that expire after {@code
   * nowMillis}; empty if it has none. History above it must be kept for them.
   */
  OptionalLong lowestAck(SpaceId spaceId, long nowMillis);

  /**
   * How many subscriptions of the space expire after {@code nowMillis}. In a write transaction, the
   * count holds until it ends: a subscription created by another transaction meanwhile (in another
   * process too) is either counted or waits for this one, so a limit checked on it holds.
   */
  long countUnexpired(SpaceId spaceId, long nowMillis);

  /**
   * Deletes subscriptions that expired at or before {@code nowMillis}, except durable ones that
   * expired after {@code durableBeforeMillis} (remembered as expired a while longer); returns how
   * many.
   */
  int purgeExpired(long nowMillis, long durableBeforeMillis);
}
