package dev.feedstore.sqlite.internal;

import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_EXPIRES_AT;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_FEED_IDS;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_ID;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_NAMESPACES;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_SPACE;
import static dev.feedstore.sqlite.internal.Tables.SUBSCRIPTIONS_TTL;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link Subscriptions} in the {@code subscriptions} table. A subscription names its space by id, so
 * storing one stores no space (subscribing is a read: it does not create the space).
 */
final class SqliteSubscriptions implements Subscriptions {
  private final SqliteTransaction tx;

  SqliteSubscriptions(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void create(Subscription subscription) {
    tx.dsl.insertInto(SUBSCRIPTIONS)
        .columns(SUBSCRIPTIONS_ID, SUBSCRIPTIONS_SPACE, SUBSCRIPTIONS_TTL, SUBSCRIPTIONS_EXPIRES_AT,
            SUBSCRIPTIONS_FEED_IDS, SUBSCRIPTIONS_NAMESPACES)
        .values(subscription.id(), subscription.spaceId().value(), subscription.ttlMillis(), subscription.expiresAtMillis(),
            JsonStrings.encode(subscription.scope().feeds().stream().map(FeedId::value).toList()),
            JsonStrings.encode(subscription.scope().namespaces().stream().map(Namespace::value).toList()))
        .execute();
  }

  @Override
  public Optional<Subscription> find(String id) {
    return tx.dsl.select(SUBSCRIPTIONS_ID, SUBSCRIPTIONS_SPACE, SUBSCRIPTIONS_EXPIRES_AT, SUBSCRIPTIONS_FEED_IDS,
            SUBSCRIPTIONS_NAMESPACES, SUBSCRIPTIONS_TTL)
        .from(SUBSCRIPTIONS)
        .where(SUBSCRIPTIONS_ID.eq(id))
        .fetchOptional(r -> new Subscription(r.value1(), new SpaceId(r.value2()),
            new Scope.Selection(
                JsonStrings.decode(r.value4()).stream().map(FeedId::new).collect(Collectors.toSet()),
                JsonStrings.decode(r.value5()).stream().map(Namespace::new).collect(Collectors.toSet())),
            r.value6(), r.value3()));
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    return tx.dsl.update(SUBSCRIPTIONS).set(SUBSCRIPTIONS_EXPIRES_AT, expiresAtMillis)
        .where(SUBSCRIPTIONS_ID.eq(id)).execute() == 1;
  }

  @Override
  public int purgeExpired(long nowMillis) {
    return tx.dsl.deleteFrom(SUBSCRIPTIONS).where(SUBSCRIPTIONS_EXPIRES_AT.le(nowMillis)).execute();
  }
}
