package dev.feedstore.server.internal;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.server.ServerSettings;
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
 * The authority's subscriptions: stored scopes with a sliding expiry. Every use moves the expiry to
 * {@code now + ttl}; an expired or unknown id is a {@link SubscriptionNotFoundException}. Expired
 * rows are purged when subscriptions are created and on every {@link #renew}.
 *
 * <p>Thread-safe; every method runs one store transaction and blocks for it.
 */
final class SubscriptionBook {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final AuthorityStore<?> store;
  private final Clock clock;
  private final ServerSettings settings;

  SubscriptionBook(AuthorityStore<?> store, Clock clock, ServerSettings settings) {
    this.store = store;
    this.clock = clock;
    this.settings = settings;
  }

  /**
   * Stores a new subscription of {@code scope}.
   *
   * @param ttlMillis the requested TTL; empty for the default
   * @throws InvalidValueException if the TTL is not positive
   * @throws LimitExceededException if it is above {@code subscription-max-ttl-ms}, or the space has
   *     {@code subscriptions-per-space} unexpired subscriptions already (nothing is stored then)
   */
  Subscription create(SpaceId spaceId, Scope.Selection scope, OptionalLong ttlMillis) {
    long ttl = ttlMillis.orElse(settings.subscriptionTtlMillis());
    checkTtl(ttl);
    return store.write(tx -> {
      long now = clock.millis();
      tx.subscriptions().purgeExpired(now);
      long subscriptions = tx.subscriptions().countUnexpired(spaceId, now) + 1;
      if (subscriptions > settings.subscriptionsPerSpace()) {
        throw new LimitExceededException(ServerSettings.Key.SUBSCRIPTIONS_PER_SPACE, settings.subscriptionsPerSpace(),
            subscriptions, "space '" + spaceId.value() + "' with this subscription (unexpired ones count)");
      }
      Subscription subscription = new Subscription(newId(), spaceId, scope, ttl, now + ttl);
      tx.subscriptions().create(subscription);
      return subscription;
    });
  }

  /** Checks a requested TTL against the rules and the {@code subscription-max-ttl-ms} limit. */
  void checkTtl(long ttl) {
    if (ttl <= 0) {
      throw new InvalidValueException("ttl_ms",
          "must be > 0 (milliseconds; leave it out for the default of " + settings.subscriptionTtlMillis() + ")", ttl);
    }
    if (ttl > settings.subscriptionMaxTtlMillis()) {
      throw new LimitExceededException(ServerSettings.Key.SUBSCRIPTION_MAX_TTL_MS,
          settings.subscriptionMaxTtlMillis(), ttl, "ttl_ms");
    }
  }

  /**
   * Looks up a subscription for a Query or Watch in {@code spaceId} and slides its expiry (unless
   * the storage takes no writes now: a read does not wait for the disk to be freed).
   *
   * @throws SubscriptionNotFoundException if it is unknown, of another space, or expired
   */
  Subscription use(String id, SpaceId spaceId) {
    // Looked up in a read transaction, so that an unknown or expired id writes nothing.
    long now = clock.millis();
    Optional<Subscription> found = store.read(tx -> tx.subscriptions().find(id)).filter(s -> s.spaceId().equals(spaceId));
    if (found.isEmpty()) {
      throw new SubscriptionNotFoundException(id, spaceId, "is not known");
    }
    if (found.get().isExpiredAt(now)) {
      throw new SubscriptionNotFoundException(id, spaceId,
          "expired at " + Instant.ofEpochMilli(found.get().expiresAtMillis()));
    }
    Subscription used = found.get().withExpiry(now + found.get().ttlMillis());
    boolean slid;
    try {
      slid = store.write(tx -> tx.subscriptions().setExpiry(id, used.expiresAtMillis()));
    } catch (StorageFaultException e) {
      // The storage takes no writes now (health says so); the read does not need one, and the
      // subscription keeps its expiry until a later use slides it.
      return found.get();
    }
    if (!slid) {
      throw new SubscriptionNotFoundException(id, spaceId, "expired");
    }
    return used;
  }

  /**
   * Slides the expiry of every subscription in {@code ids} that is still alive, and purges the
   * expired ones, in one transaction.
   *
   * @return the ids that are gone or expired
   */
  Set<String> renew(Collection<String> ids) {
    return store.write(tx -> {
      long now = clock.millis();
      Set<String> lost = new HashSet<>();
      for (String id : ids) {
        Optional<Subscription> found = tx.subscriptions().find(id);
        if (found.isEmpty() || found.get().isExpiredAt(now)) {
          lost.add(id);
        } else {
          tx.subscriptions().setExpiry(id, now + found.get().ttlMillis());
        }
      }
      tx.subscriptions().purgeExpired(now);
      return lost;
    });
  }

  /** 128 random bits, base64url without padding. */
  private static String newId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
