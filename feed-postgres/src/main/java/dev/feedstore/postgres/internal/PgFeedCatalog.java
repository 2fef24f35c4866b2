package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedCatalog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link FeedCatalog} over the {@code feeds} table. */
final class PgFeedCatalog implements FeedCatalog {
  private static final String INFO = "SELECT block_count, (SELECT max(position) FROM blocks WHERE feed_private_id = ?)"
      + " FROM feeds WHERE feed_private_id = ?";
  private static final String LIST = "SELECT f.feed_private_id, f.feed_id, f.feed_namespace, f.block_count,"
      + " (SELECT max(b.position) FROM blocks b WHERE b.feed_private_id = f.feed_private_id)"
      + " FROM feeds f WHERE f.space_private_id = ?";
  private static final String LIST_ORDER = " ORDER BY f.feed_id LIMIT ?";
  private static final String NAMESPACES = "SELECT feed_private_id, feed_id, feed_namespace FROM feeds"
      + " WHERE space_private_id = ? AND feed_id = ANY (?)";
  private static final String SPACES = "SELECT s.space_id FROM spaces s"
      + " WHERE EXISTS (SELECT 1 FROM feeds f WHERE f.space_private_id = s.space_private_id) ORDER BY s.space_id";

  private final PgTransaction tx;

  PgFeedCatalog(PgTransaction tx) {
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

  /**
   * One statement for all of them (an append asks for every feed of its blocks), whose rows the
   * transaction keeps, so that storing the blocks reads none of them again.
   */
  @Override
  public Map<FeedId, Optional<Namespace>> namespaces(SpaceId spaceId, Collection<FeedId> feedIds) {
    Map<FeedId, Optional<Namespace>> result = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty() || feedIds.isEmpty()) {
      return result;
    }
    Map<FeedId, Optional<Namespace>> found = new java.util.HashMap<>();
    for (FeedRow row : Sql.list(tx.connection, NAMESPACES, rs -> new FeedRow(rs.getLong(1), space.get(),
        new FeedId(rs.getString(2)), Optional.ofNullable(rs.getString(3)).map(Namespace::new)), space.get(),
        feedIds.stream().map(FeedId::value).toArray(String[]::new))) {
      tx.rememberFeed(row);
      found.put(row.feedId(), row.namespace());
    }
    for (FeedId feedId : feedIds) {
      Optional<Namespace> namespace = found.get(feedId);
      if (namespace != null) {
        result.put(feedId, namespace);
      }
    }
    return result;
  }

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
    return Sql.list(tx.connection, sql.append(LIST_ORDER).toString(), rs -> {
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
    Long stored = Sql.longValue(tx.connection, "SELECT feed_count FROM spaces WHERE space_private_id = ?", space.get());
    return (stored == null ? 0 : stored) + tx.pendingFeedCount(space.get());
  }

  @Override
  public List<SpaceId> spaces() {
    return Sql.list(tx.connection, SPACES, rs -> new SpaceId(rs.getString(1)));
  }

  private FeedInfo info(SpaceId spaceId, FeedRow row) {
    List<FeedInfo> found = Sql.list(tx.connection, INFO, rs -> {
      long count = rs.getLong(1) + tx.pendingBlockCount(row.privateId());
      long last = rs.getLong(2);
      return new FeedInfo(spaceId, row.feedId(), row.namespace(), count, rs.wasNull() ? Position.NONE : Position.of(last));
    }, row.privateId(), row.privateId());
    if (found.isEmpty()) {
      throw new IllegalStateException("feed " + row.feedId() + " has no row");
    }
    return found.get(0);
  }
}
