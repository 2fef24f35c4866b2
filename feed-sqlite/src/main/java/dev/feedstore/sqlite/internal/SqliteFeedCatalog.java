package dev.feedstore.sqlite.internal;

import static dev.feedstore.sqlite.internal.Tables.BLOCKS;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_FEED;
import static dev.feedstore.sqlite.internal.Tables.BLOCKS_POSITION;
import static dev.feedstore.sqlite.internal.Tables.FEEDS;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_BLOCK_COUNT;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_FEED_ID;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_NAMESPACE;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_PRIVATE_ID;
import static dev.feedstore.sqlite.internal.Tables.FEEDS_SPACE;
import static dev.feedstore.sqlite.internal.Tables.SPACES;
import static dev.feedstore.sqlite.internal.Tables.SPACES_PRIVATE_ID;
import static dev.feedstore.sqlite.internal.Tables.SPACES_SPACE_ID;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.selectOne;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ReplicaFeedCatalog;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.exception.DataAccessException;
import org.jooq.Field;

/** {@link ReplicaFeedCatalog} over the {@code feeds} table. */
final class SqliteFeedCatalog implements ReplicaFeedCatalog {
  private static final String INFO = "SELECT block_count, (SELECT max(position) FROM blocks WHERE feed_private_id = ?)"
      + " FROM feeds WHERE feed_private_id = ?";
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
    int changed = tx.dsl.update(FEEDS).set(FEEDS_NAMESPACE, namespace.value())
        .where(FEEDS_PRIVATE_ID.eq(row.get().privateId()).and(FEEDS_NAMESPACE.isNull())).execute();
    if (changed == 1) {
      tx.ids.replaceFeed(new FeedRow(row.get().privateId(), row.get().spacePrivateId(), feedId, Optional.of(namespace)));
    }
    return changed == 1;
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
    Condition condition = FEEDS_SPACE.eq(space.get());
    if (namespace.isPresent()) {
      condition = condition.and(FEEDS_NAMESPACE.eq(namespace.get().value()));
    }
    if (after.isPresent()) {
      condition = condition.and(FEEDS_FEED_ID.gt(after.get().value()));
    }
    Field<Long> lastPosition = tx.dsl.select(max(BLOCKS_POSITION)).from(BLOCKS)
        .where(BLOCKS_FEED.eq(FEEDS_PRIVATE_ID)).asField("last_position");
    return tx.dsl.select(FEEDS_PRIVATE_ID, FEEDS_FEED_ID, FEEDS_NAMESPACE, FEEDS_BLOCK_COUNT, lastPosition)
        .from(FEEDS).where(condition).orderBy(FEEDS_FEED_ID).limit(limit)
        .fetch(r -> new FeedInfo(spaceId, new FeedId(r.get(FEEDS_FEED_ID)),
            Optional.ofNullable(r.get(FEEDS_NAMESPACE)).map(Namespace::new),
            r.get(FEEDS_BLOCK_COUNT) + tx.pendingBlockCount(r.get(FEEDS_PRIVATE_ID)),
            positionOf(r.get(lastPosition))));
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
    return tx.dsl.select(SPACES_SPACE_ID).from(SPACES)
        .where(exists(selectOne().from(FEEDS).where(FEEDS_SPACE.eq(SPACES_PRIVATE_ID))))
        .orderBy(SPACES_SPACE_ID)
        .fetch(r -> new SpaceId(r.value1()));
  }

  private FeedInfo info(SpaceId spaceId, FeedRow row) {
    PreparedStatement statement = tx.statements.get(INFO);
    try {
      statement.setLong(1, row.privateId());
      statement.setLong(2, row.privateId());
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("feed " + row.feedId() + " has no row");
        }
        long count = rs.getLong(1) + tx.pendingBlockCount(row.privateId());
        long last = rs.getLong(2);
        return new FeedInfo(spaceId, row.feedId(), row.namespace(), count, rs.wasNull() ? Position.NONE : Position.of(last));
      }
    } catch (SQLException e) {
      throw new DataAccessException("reading feed " + row.feedId(), e);
    }
  }

  static Position positionOf(Long value) {
    return value == null ? Position.NONE : Position.of(value);
  }
}
