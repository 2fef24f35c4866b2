package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * {@link Subscriptions} in the {@code subscriptions} table. A subscription names its space by id, so
 * storing one stores no space (subscribing is a read: it does not create the space).
 */
final class SqliteSubscriptions implements Subscriptions {
  private static final String COLUMNS = "subscription_id, space_id, feed_ids, namespaces, ttl_ms, expires_at,"
      + " durable, acked, name";
  private static final String CREATE = "INSERT INTO subscriptions (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String FIND = "SELECT " + COLUMNS + " FROM subscriptions WHERE subscription_id = ?";
  private static final String FIND_DURABLE = "SELECT " + COLUMNS + " FROM subscriptions WHERE space_id = ?"
      + " AND name = ?";
  private static final String DURABLES = "SELECT " + COLUMNS + " FROM subscriptions WHERE space_id = ?"
      + " AND durable = 1 ORDER BY subscription_id";
  private static final String DELETE = "DELETE FROM subscriptions WHERE subscription_id = ?";
  private static final String SET_EXPIRY = "UPDATE subscriptions SET expires_at = ? WHERE subscription_id = ?";
  private static final String ACK = "UPDATE subscriptions SET acked = max(acked, ?), expires_at = ?"
      + " WHERE subscription_id = ? AND durable = 1";
  private static final String LOWEST_ACK = "SELECT min(acked) FROM subscriptions WHERE space_id = ? AND durable = 1"
      + " AND expires_at > ?";
  private static final String COUNT_UNEXPIRED = "SELECT count(*) FROM subscriptions WHERE space_id = ?"
      + " AND expires_at > ?";
  private static final String PURGE = "DELETE FROM subscriptions WHERE expires_at <= ?"
      + " AND (durable = 0 OR expires_at <= ?)";

  private final SqliteTransaction tx;

  SqliteSubscriptions(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void create(Subscription subscription) {
    Sql.update(tx, CREATE, subscription.id(), subscription.spaceId().value(),
        JsonStrings.encode(subscription.scope().feeds().stream().map(FeedId::value).toList()),
        JsonStrings.encode(subscription.scope().namespaces().stream().map(Namespace::value).toList()),
        subscription.ttlMillis(), subscription.expiresAtMillis(), subscription.isDurable() ? 1 : 0,
        subscription.durable().map(Subscription.Durable::acked).orElse(0L),
        subscription.durable().flatMap(Subscription.Durable::name).orElse(null));
  }

  @Override
  public Optional<Subscription> find(String id) {
    return first(Sql.list(tx, FIND, SqliteSubscriptions::subscription, id));
  }

  @Override
  public Optional<Subscription> findDurable(SpaceId spaceId, String name) {
    return first(Sql.list(tx, FIND_DURABLE, SqliteSubscriptions::subscription, spaceId.value(), name));
  }

  @Override
  public List<Subscription> durables(SpaceId spaceId) {
    return Sql.list(tx, DURABLES, SqliteSubscriptions::subscription, spaceId.value());
  }

  @Override
  public boolean delete(String id) {
    return Sql.update(tx, DELETE, id) == 1;
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    return Sql.update(tx, SET_EXPIRY, expiresAtMillis, id) == 1;
  }

  @Override
  public boolean ack(String id, long upTo, long expiresAtMillis) {
    return Sql.update(tx, ACK, upTo, expiresAtMillis, id) == 1;
  }

  @Override
  public OptionalLong lowestAck(SpaceId spaceId, long nowMillis) {
    Long lowest = Sql.longValue(tx, LOWEST_ACK, spaceId.value(), nowMillis);
    return lowest == null ? OptionalLong.empty() : OptionalLong.of(lowest);
  }

  @Override
  public long countUnexpired(SpaceId spaceId, long nowMillis) {
    return Sql.longValue(tx, COUNT_UNEXPIRED, spaceId.value(), nowMillis);
  }

  @Override
  public int purgeExpired(long nowMillis, long durableBeforeMillis) {
    return Sql.update(tx, PURGE, nowMillis, durableBeforeMillis);
  }

  private static Subscription subscription(ResultSet rs) throws SQLException {
    Optional<Subscription.Durable> durable = rs.getInt(7) == 1
        ? Optional.of(new Subscription.Durable(Optional.ofNullable(rs.getString(9)), rs.getLong(8)))
        : Subscription.NOT_DURABLE;
    return new Subscription(rs.getString(1), new SpaceId(rs.getString(2)),
        new Scope.Selection(
            JsonStrings.decode(rs.getString(3)).stream().map(FeedId::new).collect(Collectors.toSet()),
            JsonStrings.decode(rs.getString(4)).stream().map(Namespace::new).collect(Collectors.toSet())),
        rs.getLong(5), rs.getLong(6), durable);
  }

  private static Optional<Subscription> first(List<Subscription> found) {
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }
}
