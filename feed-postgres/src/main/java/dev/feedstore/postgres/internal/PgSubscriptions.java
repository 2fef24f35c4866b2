package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * {@link Subscriptions} in the {@code subscriptions} table, read by every process on every use (a
 * subscription made through one process is used through another). Feed ids and namespaces are
 * {@code text[]} columns. Storing one stores no space.
 */
final class PgSubscriptions implements Subscriptions {
  private static final String COLUMNS = "subscription_id, space_id, feed_ids, namespaces, ttl_ms, expires_at,"
      + " durable, acked, name";
  private static final String CREATE = "INSERT INTO subscriptions (" + COLUMNS + ")"
      + " VALUES (?, ?, ?, ?, ?, ?, ? = 1, ?, ?)";
  private static final String FIND = "SELECT " + COLUMNS + " FROM subscriptions WHERE subscription_id = ?";
  private static final String FIND_DURABLE = "SELECT " + COLUMNS + " FROM subscriptions WHERE space_id = ?"
      + " AND name = ?";
  private static final String DURABLES = "SELECT " + COLUMNS + " FROM subscriptions WHERE space_id = ?"
      + " AND durable ORDER BY subscription_id";
  private static final String DELETE = "DELETE FROM subscriptions WHERE subscription_id = ?";
  private static final String SET_EXPIRY = "UPDATE subscriptions SET expires_at = ? WHERE subscription_id = ?";
  private static final String ACK = "UPDATE subscriptions SET acked = greatest(acked, ?), expires_at = ?"
      + " WHERE subscription_id = ? AND durable";
  private static final String LOWEST_ACK = "SELECT min(acked) FROM subscriptions WHERE space_id = ? AND durable"
      + " AND expires_at > ?";
  /**
   * Creations of subscriptions in one space wait for each other from here to their commit (a lock
   * of the transaction, by a hash of the space id), so that a count the limit is checked on holds
   * until the new subscription is stored, whatever process stores another meanwhile.
   */
  private static final String LOCK_SPACE = "SELECT pg_advisory_xact_lock(hashtextextended(?, 7))";
  private static final String COUNT_UNEXPIRED = "SELECT count(*) FROM subscriptions WHERE space_id = ?"
      + " AND expires_at > ?";
  private static final String PURGE = "DELETE FROM subscriptions WHERE expires_at <= ?"
      + " AND (NOT durable OR expires_at <= ?)";

  private final PgTransaction tx;

  PgSubscriptions(PgTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void create(Subscription subscription) {
    Sql.update(tx.connection, CREATE, subscription.id(), subscription.spaceId().value(),
        subscription.scope().feeds().stream().map(FeedId::value).toArray(String[]::new),
        subscription.scope().namespaces().stream().map(Namespace::value).toArray(String[]::new),
        subscription.ttlMillis(), subscription.expiresAtMillis(), subscription.isDurable() ? 1 : 0,
        subscription.durable().map(Subscription.Durable::acked).orElse(0L),
        subscription.durable().flatMap(Subscription.Durable::name).orElse(null));
  }

  @Override
  public Optional<Subscription> find(String id) {
    if (!storable(id)) {
      return Optional.empty();
    }
    return first(Sql.list(tx.connection, FIND, PgSubscriptions::subscription, id));
  }

  @Override
  public Optional<Subscription> findDurable(SpaceId spaceId, String name) {
    if (!storable(name)) {
      return Optional.empty();
    }
    return first(Sql.list(tx.connection, FIND_DURABLE, PgSubscriptions::subscription, spaceId.value(), name));
  }

  @Override
  public List<Subscription> durables(SpaceId spaceId) {
    return Sql.list(tx.connection, DURABLES, PgSubscriptions::subscription, spaceId.value());
  }

  @Override
  public boolean delete(String id) {
    return storable(id) && Sql.update(tx.connection, DELETE, id) == 1;
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    if (!storable(id)) {
      return false;
    }
    return Sql.update(tx.connection, SET_EXPIRY, expiresAtMillis, id) == 1;
  }

  @Override
  public boolean ack(String id, long upTo, long expiresAtMillis) {
    if (!storable(id)) {
      return false;
    }
    return Sql.update(tx.connection, ACK, upTo, expiresAtMillis, id) == 1;
  }

  @Override
  public OptionalLong lowestAck(SpaceId spaceId, long nowMillis) {
    Long lowest = Sql.longValue(tx.connection, LOWEST_ACK, spaceId.value(), nowMillis);
    return lowest == null ? OptionalLong.empty() : OptionalLong.of(lowest);
  }

  @Override
  public long countUnexpired(SpaceId spaceId, long nowMillis) {
    Sql.list(tx.connection, LOCK_SPACE, rs -> null, spaceId.value());
    return Sql.longValue(tx.connection, COUNT_UNEXPIRED, spaceId.value(), nowMillis);
  }

  @Override
  public int purgeExpired(long nowMillis, long durableBeforeMillis) {
    return Sql.update(tx.connection, PURGE, nowMillis, durableBeforeMillis);
  }

  /**
   * PostgreSQL's text cannot hold the character NUL (it refuses the statement), so an id with one
   * cannot be stored and is not: looking it up finds nothing, as for any id never handed out.
   */
  private static boolean storable(String id) {
    return id.indexOf('\0') < 0;
  }

  private static Subscription subscription(ResultSet rs) throws SQLException {
    Optional<Subscription.Durable> durable = rs.getBoolean(7)
        ? Optional.of(new Subscription.Durable(Optional.ofNullable(rs.getString(9)), rs.getLong(8)))
        : Subscription.NOT_DURABLE;
    return new Subscription(rs.getString(1), new SpaceId(rs.getString(2)),
        new Scope.Selection(
            texts(rs.getArray(3)).stream().map(FeedId::new).collect(Collectors.toSet()),
            texts(rs.getArray(4)).stream().map(Namespace::new).collect(Collectors.toSet())),
        rs.getLong(5), rs.getLong(6), durable);
  }

  private static Optional<Subscription> first(List<Subscription> found) {
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  private static List<String> texts(Array array) throws SQLException {
    return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
  }
}
