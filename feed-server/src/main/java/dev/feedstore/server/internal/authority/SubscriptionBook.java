package dev.feedstore.server.internal.authority;

import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTIONS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_MAX_TTL_MS;
import static dev.feedstore.server.settings.ServerSettings.SUBSCRIPTION_TTL_MS;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import dev.feedstore.server.internal.errors.SubscriptionNotFoundException;
import dev.feedstore.server.settings.ServerSettings;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The authority's subscriptions: stored scopes with an expiry. Every use of a subscription that is
 * not durable moves its expiry to {@code now + ttl}; a durable one keeps an acknowledged position and
 * its expiry moves only when it is acknowledged ({@link #ack}), so one not acknowledged within its
 * deadline expires and holds nothing ({@link #hold}). An expired or unknown id is a {@link
 * SubscriptionNotFoundException} whose reason tells the two apart. Expired rows are purged when
 * subscriptions are created and on every {@link #renew}; an expired durable one is remembered (as
 * expired) for {@code subscription-max-ttl-ms} after it expired, then forgotten (unknown).
 *
 * <p>Thread-safe; every method runs one store transaction and blocks for it.
 */
public final class SubscriptionBook {
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * A subscription Subscribe answers with.
   *
   * @param created false when a live durable subscription of the requested name was returned
   */
  record Stored(Subscription subscription, boolean created) {}

  private final AuthorityStore<?> store;
  private final Clock clock;
  private final ServerSettings settings;

  SubscriptionBook(AuthorityStore<?> store, Clock clock, ServerSettings settings) {
    this.store = store;
    this.clock = clock;
    this.settings = settings;
  }

  /**
   * Stores a new subscription of {@code scope}, or, for a durable one with a name, returns the live
   * one of that name (replacing one of that name that expired).
   *
   * @throws InvalidValueException if the TTL is not positive, or the name is taken by a live
   *     durable subscription of another scope
   * @throws LimitExceededException if it is above {@code subscription-max-ttl-ms}, or the space has
   *     {@code subscriptions-per-space} unexpired subscriptions already (nothing is stored then)
   */
  Stored create(SubscribeCommand command) {
    SpaceId spaceId = command.spaceId();
    long ttl = command.ttlMillis().orElse(settings.get(SUBSCRIPTION_TTL_MS));
    checkTtl(command);
    return store.write(tx -> {
      long now = clock.millis();
      purgeExpired(tx.subscriptions(), now);
      // Counted first: on a shared store the count also orders creations in the space, the name's lookup included.
      long subscriptions = tx.subscriptions().countUnexpired(spaceId, now) + 1;
      if (command.name().isPresent()) {
        Optional<Subscription> named = tx.subscriptions().findDurable(spaceId, command.name().get());
        if (named.isPresent() && !named.get().isExpiredAt(now)) {
          if (!named.get().scope().equals(command.scope())) {
            throw new InvalidValueException("name", "is the name of a live durable subscription of another scope in"
                + " space '" + spaceId.value() + "' (" + named.get().id() + "); use another name or the same scope",
                command.name().get());
          }
          return new Stored(named.get(), false);
        }
        // One of that name that expired holds nothing any more; the name is free for a new one.
        named.ifPresent(expired -> tx.subscriptions().delete(expired.id()));
      }
      if (subscriptions > settings.get(SUBSCRIPTIONS_PER_SPACE)) {
        throw new LimitExceededException(SUBSCRIPTIONS_PER_SPACE.name(), settings.get(SUBSCRIPTIONS_PER_SPACE),
            subscriptions, "space '" + spaceId.value() + "' with this subscription (unexpired ones count)");
      }
      Optional<Subscription.Durable> durable = command.durable()
          ? Optional.of(new Subscription.Durable(command.name(), 0))
          : Subscription.NOT_DURABLE;
      Subscription subscription = new Subscription(newId(), spaceId, command.scope(), ttl, now + ttl, durable);
      tx.subscriptions().create(subscription);
      return new Stored(subscription, true);
    });
  }

  /**
   * Checks a requested TTL (a durable subscription's {@code ack_within_ms}) against the rules and
   * the {@code subscription-max-ttl-ms} limit.
   */
  void checkTtl(SubscribeCommand command) {
    long ttl = command.ttlMillis().orElse(settings.get(SUBSCRIPTION_TTL_MS));
    String field = command.durable() ? "ack_within_ms" : "ttl_ms";
    if (ttl <= 0) {
      throw new InvalidValueException(field,
          "must be > 0 (milliseconds; leave it out for the default of " + settings.get(SUBSCRIPTION_TTL_MS) + ")", ttl);
    }
    if (ttl > settings.get(SUBSCRIPTION_MAX_TTL_MS)) {
      throw new LimitExceededException(SUBSCRIPTION_MAX_TTL_MS.name(),
          settings.get(SUBSCRIPTION_MAX_TTL_MS), ttl, field);
    }
  }

  /**
   * Looks up a subscription for a Query or Watch in {@code spaceId} and slides its expiry if it is
   * not durable (unless the storage takes no writes now: a read does not wait for the disk to be
   * freed). A durable one's expiry moves only by {@link #ack}.
   *
   * @param fromAck the read starts from its acknowledged position, so it must be durable
   * @throws SubscriptionNotFoundException if it is unknown, of another space, or expired
   * @throws InvalidValueException if {@code fromAck} and it is not durable (nothing is written then)
   */
  Subscription use(String id, SpaceId spaceId, boolean fromAck) {
    // Looked up in a read transaction, so that an unknown or expired id writes nothing.
    long now = clock.millis();
    Subscription found = live(store.read(tx -> tx.subscriptions().find(id)), id, spaceId, now);
    if (fromAck && !found.isDurable()) {
      throw new InvalidValueException("from_ack", "needs a durable subscription in subscription_id (subscribe with"
          + " durable = true); this one keeps no acknowledged position", id);
    }
    if (found.isDurable()) {
      return found;
    }
    Subscription used = found.withExpiry(now + found.ttlMillis());
    boolean slid;
    try {
      slid = store.write(tx -> tx.subscriptions().setExpiry(id, used.expiresAtMillis()));
    } catch (StorageFaultException e) {
      // The storage takes no writes now (health says so); the read does not need one, and the
      // subscription keeps its expiry until a later use slides it.
      return found;
    }
    if (!slid) {
      throw new SubscriptionNotFoundException(id, spaceId, SubscriptionNotFoundException.Reason.SUBSCRIPTION_EXPIRED,
          "expired");
    }
    return used;
  }

  /**
   * Looks up a live subscription of {@code spaceId} without using it: nothing is written.
   *
   * @throws SubscriptionNotFoundException if it is unknown, of another space, or expired
   */
  Subscription find(String id, SpaceId spaceId) {
    return live(store.read(tx -> tx.subscriptions().find(id)), id, spaceId, clock.millis());
  }

  /**
   * Acknowledges a durable subscription up to {@code upTo} and restarts its deadline, in one
   * transaction. An {@code upTo} below its acknowledged position leaves the position.
   *
   * @return the subscription as stored now
   * @throws InvalidValueException if it is not durable, or {@code upTo} is negative or above the
   *     space's highest position
   * @throws SubscriptionNotFoundException if it is unknown, of another space, or expired
   */
  Subscription ack(String id, SpaceId spaceId, long upTo) {
    if (upTo < 0) {
      throw new InvalidValueException("up_to", "must be >= 0 (a position of the space)", upTo);
    }
    return store.write(tx -> {
      long now = clock.millis();
      Subscription found = live(tx.subscriptions().find(id), id, spaceId, now);
      if (!found.isDurable()) {
        throw new InvalidValueException("subscription_id", "names a subscription that is not durable, which keeps no"
            + " acknowledged position; subscribe with durable = true to acknowledge", id);
      }
      long max = tx.blocks().maxPosition(spaceId).value();
      if (upTo > max) {
        throw new InvalidValueException("up_to", "must be at most the space's highest position, " + max
            + " (only delivered blocks are acknowledged)", upTo);
      }
      tx.subscriptions().ack(id, upTo, now + found.ttlMillis());
      return tx.subscriptions().find(id).orElseThrow();
    });
  }

  /**
   * The durable subscriptions of a space, by id (expired ones while they are remembered), with its
   * highest position, from one snapshot.
   */
  DurableList durables(SpaceId spaceId, ServerToken token) {
    return store.read(tx -> new DurableList(tx.subscriptions().durables(spaceId),
        tx.blocks().maxPosition(spaceId).value(), token, clock.millis()));
  }

  /**
   * The lowest position of the space that its live durable subscriptions still need (the lowest
   * acknowledged position plus one); empty if none holds anything. Retention keeps every position
   * at or above it.
   */
  OptionalLong hold(SpaceId spaceId) {
    Optional<dev.feedstore.core.Position> kept = store.read(tx -> retentionHolds().lowestKept(tx, spaceId));
    return kept.isPresent() ? OptionalLong.of(kept.get().value()) : OptionalLong.empty();
  }

  /**
   * What the live durable subscriptions hold back from compaction: asked in the compaction's own
   * transaction, the position after their lowest acknowledged one, so retention never removes a
   * block one of them has not acknowledged.
   */
  RetentionHolds retentionHolds() {
    return (tx, spaceId) -> {
      OptionalLong lowest = tx.subscriptions().lowestAck(spaceId, clock.millis());
      return lowest.isPresent() ? Optional.of(dev.feedstore.core.Position.of(lowest.getAsLong() + 1))
          : Optional.empty();
    };
  }

  /**
   * Slides the expiry of every subscription in {@code ids} that is still alive and not durable, and
   * purges the expired ones, in one transaction.
   *
   * @return the ids that are gone or expired
   */
  public Set<String> renew(Collection<String> ids) {
    return store.write(tx -> {
      long now = clock.millis();
      Set<String> lost = new HashSet<>();
      for (String id : ids) {
        Optional<Subscription> found = tx.subscriptions().find(id);
        if (found.isEmpty() || found.get().isExpiredAt(now)) {
          lost.add(id);
        } else if (!found.get().isDurable()) {
          tx.subscriptions().setExpiry(id, now + found.get().ttlMillis());
        }
      }
      purgeExpired(tx.subscriptions(), now);
      return lost;
    });
  }

  /** Deletes expired subscriptions, keeping expired durable ones for subscription-max-ttl-ms. */
  private void purgeExpired(Subscriptions subscriptions, long now) {
    subscriptions.purgeExpired(now, now - settings.get(SUBSCRIPTION_MAX_TTL_MS));
  }

  private static Subscription live(Optional<Subscription> stored, String id, SpaceId spaceId, long now) {
    Optional<Subscription> found = stored.filter(s -> s.spaceId().equals(spaceId));
    if (found.isEmpty()) {
      throw new SubscriptionNotFoundException(id, spaceId, SubscriptionNotFoundException.Reason.SUBSCRIPTION_UNKNOWN,
          "is not known");
    }
    if (found.get().isExpiredAt(now)) {
      throw new SubscriptionNotFoundException(id, spaceId, SubscriptionNotFoundException.Reason.SUBSCRIPTION_EXPIRED,
          "expired at " + Instant.ofEpochMilli(found.get().expiresAtMillis())
              + (found.get().isDurable() ? " (not acknowledged within its ack_within_ms)" : ""));
    }
    return found.get();
  }

  /** 128 random bits, base64url without padding. */
  private static String newId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
