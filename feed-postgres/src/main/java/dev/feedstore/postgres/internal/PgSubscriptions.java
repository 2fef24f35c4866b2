package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@link Subscriptions} in the {@code subscriptions} table, read by every process on every use (a
 * subscription made through one process is used through another). Feed ids and namespaces are
 * {@code text[]} columns. Storing one stores no space.
 */
final class PgSubscriptions implements Subscriptions {
  private static final String CREATE = "INSERT INTO subscriptions (subscription_id, space_id, ttl_ms, expires_at,"
      + " feed_ids, namespaces) VALUES (?, ?, ?, ?, ?, ?)";
  private static final String FIND = "SELECT space_id, feed_ids, namespaces, ttl_ms, expires_at FROM subscriptions"
      + " WHERE subscription_id = ?";
  private static final String SET_EXPIRY = "UPDATE subscriptions SET expires_at = ? WHERE subscription_id = ?";
  /**
   * Creations of subscriptions in one space wait for each other from here to their commit (a lock
   * of the transaction, by a hash of the space id), so that a count the limit is checked on holds
   * until the new subscription is stored, whatever process stores another meanwhile.
   */
  private static final String LOCK_SPACE = "SELECT pg_advisory_xact_lock(hashtextextended(?, 7))";
  private static final String COUNT_UNEXPIRED = "SELECT count(*) FROM subscriptions WHERE space_id = ?"
      + " AND expires_at > ?";
  private static final String PURGE = "DELETE FROM subscriptions WHERE expires_at <= ?";

  private final PgTransaction tx;

  PgSubscriptions(PgTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void create(Subscription subscription) {
    Sql.update(tx.connection, CREATE, subscription.id(), subscription.spaceId().value(), subscription.ttlMillis(),
        subscription.expiresAtMillis(),
        subscription.scope().feeds().stream().map(FeedId::value).toArray(String[]::new),
        subscription.scope().namespaces().stream().map(Namespace::value).toArray(String[]::new));
  }

  @Override
  public Optional<Subscription> find(String id) {
    if (!storable(id)) {
      return Optional.empty();
    }
    List<Subscription> found = Sql.list(tx.connection, FIND, rs -> new Subscription(id, new SpaceId(rs.getString(1)),
        new Scope.Selection(
            texts(rs.getArray(2)).stream().map(FeedId::new).collect(Collectors.toSet()),
            texts(rs.getArray(3)).stream().map(Namespace::new).collect(Collectors.toSet())),
        rs.getLong(4), rs.getLong(5)), id);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    if (!storable(id)) {
      return false;
    }
    return Sql.update(tx.connection, SET_EXPIRY, expiresAtMillis, id) == 1;
  }

  @Override
  public long countUnexpired(SpaceId spaceId, long nowMillis) {
    Sql.list(tx.connection, LOCK_SPACE, rs -> null, spaceId.value());
    return Sql.longValue(tx.connection, COUNT_UNEXPIRED, spaceId.value(), nowMillis);
  }

  @Override
  public int purgeExpired(long nowMillis) {
    return Sql.update(tx.connection, PURGE, nowMillis);
  }

  /**
   * PostgreSQL's text cannot hold the character NUL (it refuses the statement), so an id with one
   * cannot be stored and is not: looking it up finds nothing, as for any id never handed out.
   */
  private static boolean storable(String id) {
    return id.indexOf('\0') < 0;
  }

  private static List<String> texts(Array array) throws SQLException {
    return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
  }
}
