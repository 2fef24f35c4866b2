package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link Subscriptions} in the {@code subscriptions} table. A subscription names its space by id, so
 * storing one stores no space (subscribing is a read: it does not create the space).
 */
final class SqliteSubscriptions implements Subscriptions {
  private static final String CREATE = "INSERT INTO subscriptions (subscription_id, space_id, ttl_ms, expires_at,"
      + " feed_ids, namespaces) VALUES (?, ?, ?, ?, ?, ?)";
  private static final String FIND = "SELECT space_id, feed_ids, namespaces, ttl_ms, expires_at FROM subscriptions"
      + " WHERE subscription_id = ?";
  private static final String SET_EXPIRY = "UPDATE subscriptions SET expires_at = ? WHERE subscription_id = ?";
  private static final String COUNT_UNEXPIRED = "SELECT count(*) FROM subscriptions WHERE space_id = ?"
      + " AND expires_at > ?";
  private static final String PURGE = "DELETE FROM subscriptions WHERE expires_at <= ?";

  private final SqliteTransaction tx;

  SqliteSubscriptions(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void create(Subscription subscription) {
    Sql.update(tx, CREATE, subscription.id(), subscription.spaceId().value(), subscription.ttlMillis(),
        subscription.expiresAtMillis(),
        JsonStrings.encode(subscription.scope().feeds().stream().map(FeedId::value).toList()),
        JsonStrings.encode(subscription.scope().namespaces().stream().map(Namespace::value).toList()));
  }

  @Override
  public Optional<Subscription> find(String id) {
    List<Subscription> found = Sql.list(tx, FIND, rs -> new Subscription(id, new SpaceId(rs.getString(1)),
        new Scope.Selection(
            JsonStrings.decode(rs.getString(2)).stream().map(FeedId::new).collect(Collectors.toSet()),
            JsonStrings.decode(rs.getString(3)).stream().map(Namespace::new).collect(Collectors.toSet())),
        rs.getLong(4), rs.getLong(5)), id);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    return Sql.update(tx, SET_EXPIRY, expiresAtMillis, id) == 1;
  }

  @Override
  public long countUnexpired(SpaceId spaceId, long nowMillis) {
    return Sql.longValue(tx, COUNT_UNEXPIRED, spaceId.value(), nowMillis);
  }

  @Override
  public int purgeExpired(long nowMillis) {
    return Sql.update(tx, PURGE, nowMillis);
  }
}
