package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ReplicaFeedCatalog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link ReplicaFeedCatalog} over the {@code feeds} table. */
final class SqliteFeedCatalog implements ReplicaFeedCatalog {
  private static final String INFO = "SELECT block_count, (SELECT max(position) FROM blocks WHERE feed_private_id = ?)"
      + " FROM feeds WHERE feed_private_id = ?";
  private static final String ADOPT_NAMESPACE =
      "UPDATE feeds SET feed_namespace = ? WHERE feed_private_id = ? AND feed_namespace IS NULL";
  /** A page of feeds: the conditions in between, then the order and the limit. */
  private static final String LIST = "SELECT f.feed_private_id, f.feed_id, f.feed_namespace, f.block_count,"
      + " (SELECT max(b.position) FROM blocks b WHERE b.feed_private_id = f.feed_private_id)"
      + " FROM feeds f WHERE f.space_private_id = ?";
  private static final String LIST_ORDER = " ORDER BY f.feed_id LIMIT ?";
  private static final String SPACES = "SELECT s.space_id FROM spaces s"
      + " WHERE EXISTS (SELECT 1 FROM feeds f WHERE f.space_private_id = s.space_private_id) ORDER BY s.space_id";

  private final SqliteTransaction tx;

  SqliteFeedCatalog(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<FeedInfo> find(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId).map(row -> info(spaceId, row));
  }

  @Override
  public FeedInfo create(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    return info(spaceId, tx.createFeed(spaceId, feedId, namespace));
  }

  @Override
  public Optional<Namespace> ensure(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    return tx.createFeed(spaceId, feedId, namespace).namespace();
  }

  @Override
  public Map<FeedId, Optional<Namespace>> namespaces(SpaceId spaceId, Collection<FeedId> feedIds) {
    Map<FeedId, Optional<Namespace>> result = new LinkedHashMap<>();
    for (FeedId feedId : feedIds) {
      tx.findFeed(spaceId, feedId).ifPresent(row -> result.put(feedId, row.namespace()));
    }
    return result;
  }

  @Override
  public boolean adoptNamespace(SpaceId spaceId, FeedId feedId, Namespace namespace) {
    Optional<FeedRow> row = tx.findFeed(spaceId, feedId);
    if (row.isEmpty() || row.get().namespace().isPresent()) {
      return false;
    }
    int changed = Sql.update(tx, ADOPT_NAMESPACE, namespace.value(), row.get().privateId());
    if (changed == 1) {
      tx.ids.replaceFeed(new FeedRow(row.get().privateId(), row.get().spacePrivateId(), feedId, Optional.of(namespace)));
    }
    return changed == 1;
  }

  /** One of four statements, by whether a namespace and a feed id to start after are given. */
  @Override
  public List<FeedInfo> list(SpaceId spaceId, Optional<Namespace> namespace, Optional<FeedId> after, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + limit);
    }
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    StringBuilder sql = new StringBuilder(LIST);
    List<Object> parameters = new ArrayList<>(4);
    parameters.add(space.get());
    if (namespace.isPresent()) {
      sql.append(" AND f.feed_namespace = ?");
      parameters.add(namespace.get().value());
    }
    if (after.isPresent()) {
      sql.append(" AND f.feed_id > ?");
      parameters.add(after.get().value());
    }
    parameters.add(limit);
    return Sql.list(tx, sql.append(LIST_ORDER).toString(), rs -> {
      long privateId = rs.getLong(1);
      long last = rs.getLong(5);
      Position lastPosition = rs.wasNull() ? Position.NONE : Position.of(last);
      return new FeedInfo(spaceId, new FeedId(rs.getString(2)), Optional.ofNullable(rs.getString(3)).map(Namespace::new),
          rs.getLong(4) + tx.pendingBlockCount(privateId), lastPosition);
    }, parameters.toArray());
  }

  @Override
  public long count(SpaceId spaceId) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return 0;
    }
    Long stored = Sql.longValue(tx, "SELECT feed_count FROM spaces WHERE space_private_id = ?", space.get());
    return (stored == null ? 0 : stored) + tx.pendingFeedCount(space.get());
  }

  @Override
  public List<SpaceId> spaces() {
    return Sql.list(tx, SPACES, rs -> new SpaceId(rs.getString(1)));
  }

  private FeedInfo info(SpaceId spaceId, FeedRow row) {
    List<FeedInfo> found = Sql.list(tx, INFO, rs -> {
      long count = rs.getLong(1) + tx.pendingBlockCount(row.privateId());
      long last = rs.getLong(2);
      return new FeedInfo(spaceId, row.feedId(), row.namespace(), count, rs.wasNull() ? Position.NONE : Position.of(last));
    }, row.privateId(), row.privateId());
    if (found.isEmpty()) {
      throw new IllegalStateException("feed " + row.feedId() + " has no row");
    }
    return found.get(0);
  }

  static Position positionOf(Long value) {
    return value == null ? Position.NONE : Position.of(value);
  }
}
