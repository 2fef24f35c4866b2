package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ReplicationPolicies;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link ReplicationPolicies} in the {@code feed_replication}, {@code namespace_replication} and
 * {@code space_replication} tables.
 */
final class SqliteReplicationPolicies implements ReplicationPolicies {
  private static final String FROM = "from";
  private static final String LATEST = "latest";
  private static final String SINCE = "since";
  private static final String FEED =
      "SELECT mode, from_position, since_millis FROM feed_replication WHERE feed_private_id = ?";
  private static final String DELETE_FEED = "DELETE FROM feed_replication WHERE feed_private_id = ?";
  private static final String SET_FEED = "INSERT INTO feed_replication (feed_private_id, mode, from_position,"
      + " since_millis) VALUES (?, ?, ?, ?) ON CONFLICT (feed_private_id) DO UPDATE SET mode = excluded.mode,"
      + " from_position = excluded.from_position, since_millis = excluded.since_millis";
  private static final String ADD_NAMESPACE = "INSERT INTO namespace_replication (space_private_id, namespace)"
      + " VALUES (?, ?) ON CONFLICT DO NOTHING";
  private static final String REMOVE_NAMESPACE =
      "DELETE FROM namespace_replication WHERE space_private_id = ? AND namespace = ?";

  private final SqliteTransaction tx;

  SqliteReplicationPolicies(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Replication feed(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId)
        .flatMap(feed -> Sql.list(tx, FEED, SqliteReplicationPolicies::policy, feed.privateId())
            .stream().findFirst())
        .orElse(Replication.NONE);
  }

  @Override
  public void setFeed(SpaceId spaceId, FeedId feedId, Replication policy) {
    FeedRow feed = tx.requireFeed(spaceId, feedId);
    if (policy instanceof Replication.None) {
      Sql.update(tx, DELETE_FEED, feed.privateId());
      return;
    }
    Sql.update(tx, SET_FEED, feed.privateId(), mode(policy), from(policy), since(policy));
  }

  @Override
  public Map<FeedId, Replication> feeds(SpaceId spaceId) {
    Map<FeedId, Replication> result = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return result;
    }
    Sql.list(tx, "SELECT r.mode, r.from_position, r.since_millis, f.feed_id FROM feed_replication r"
            + " JOIN feeds f ON f.feed_private_id = r.feed_private_id WHERE f.space_private_id = ? ORDER BY f.feed_id",
        rs -> {
          result.put(new FeedId(rs.getString(4)), policy(rs));
          return null;
        }, space.get());
    return result;
  }

  @Override
  public Set<Namespace> namespaces(SpaceId spaceId) {
    Set<Namespace> result = new TreeSet<>();
    tx.findSpace(spaceId).ifPresent(space -> Sql.list(tx,
        "SELECT namespace FROM namespace_replication WHERE space_private_id = ?",
        rs -> result.add(new Namespace(rs.getString(1))), space));
    return result;
  }

  @Override
  public void setNamespace(SpaceId spaceId, Namespace namespace, boolean replicated) {
    if (replicated) {
      Sql.update(tx, ADD_NAMESPACE, tx.space(spaceId), namespace.value());
    } else {
      tx.findSpace(spaceId).ifPresent(space -> Sql.update(tx, REMOVE_NAMESPACE, space, namespace.value()));
    }
  }

  @Override
  public Replication space(SpaceId spaceId) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return Replication.NONE;
    }
    List<Replication> policies = Sql.list(tx,
        "SELECT mode, from_position, since_millis FROM space_replication WHERE space_private_id = ?",
        SqliteReplicationPolicies::policy, space.get());
    return policies.isEmpty() ? Replication.NONE : policies.get(0);
  }

  @Override
  public void setSpace(SpaceId spaceId, Replication policy) {
    if (policy instanceof Replication.None) {
      tx.findSpace(spaceId).ifPresent(space ->
          Sql.update(tx, "DELETE FROM space_replication WHERE space_private_id = ?", space));
      return;
    }
    Sql.update(tx, "INSERT INTO space_replication (space_private_id, mode, from_position, since_millis)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (space_private_id) DO UPDATE SET mode = excluded.mode,"
            + " from_position = excluded.from_position, since_millis = excluded.since_millis",
        tx.space(spaceId), mode(policy), from(policy), since(policy));
  }

  @Override
  public Set<SpaceId> spaces() {
    Set<SpaceId> result = new TreeSet<>();
    Sql.list(tx, "SELECT s.space_id FROM spaces s WHERE EXISTS (SELECT 1 FROM feeds f JOIN feed_replication r"
            + " ON r.feed_private_id = f.feed_private_id WHERE f.space_private_id = s.space_private_id)"
            + " OR EXISTS (SELECT 1 FROM namespace_replication n WHERE n.space_private_id = s.space_private_id)"
            + " OR EXISTS (SELECT 1 FROM space_replication p WHERE p.space_private_id = s.space_private_id)",
        rs -> result.add(new SpaceId(rs.getString(1))));
    return result;
  }

  /** The policy of a row whose first columns are mode, from_position and since_millis. */
  private static Replication policy(java.sql.ResultSet rs) throws java.sql.SQLException {
    String mode = rs.getString(1);
    if (LATEST.equals(mode)) {
      return Replication.LATEST;
    }
    return SINCE.equals(mode) ? new Replication.Since(rs.getLong(3)) : Replication.from(Position.of(rs.getLong(2)));
  }

  private static String mode(Replication policy) {
    return policy instanceof Replication.Latest ? LATEST : policy instanceof Replication.Since ? SINCE : FROM;
  }

  /** The time of a policy that starts at one, or null. */
  private static Long since(Replication policy) {
    return policy instanceof Replication.Since since ? since.epochMillis() : null;
  }

  private static long from(Replication policy) {
    return policy instanceof Replication.From f ? f.from().value() : 0;
  }
}
