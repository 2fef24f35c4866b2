package dev.feedstore.sqlite.internal;

import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.FEED_REPLICATION;
import static dev.feedstore.store.schema.Tables.NAMESPACE_REPLICATION;
import static dev.feedstore.store.schema.Tables.SPACES;
import static dev.feedstore.store.schema.Tables.SPACE_REPLICATION;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.selectOne;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ReplicationPolicies;
import dev.feedstore.store.FeedRow;
import dev.feedstore.store.Params;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Rendering;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;

/**
 * {@link ReplicationPolicies} in the {@code feed_replication}, {@code namespace_replication} and
 * {@code space_replication} tables: a policy is a mode ({@code from} a position, {@code latest}, or
 * {@code since} a time until resolved) with its position and time.
 */
final class SqliteReplicationPolicies implements ReplicationPolicies {
  private static final String FROM = "from";
  private static final String LATEST = "latest";
  private static final String SINCE = "since";
  private static final Queries QUERIES = new Queries(Rendering.of(SqliteDialect.INSTANCE.family()));

  /** The statements, rendered once. */
  private static final class Queries {
    private static final Param<String> MODE = Params.text("mode");
    private static final Param<Long> FROM_POSITION = Params.number("from_position");
    private static final Param<Long> SINCE_MILLIS = Params.number("since_millis");

    final Rendered feed;
    final Rendered deleteFeed;
    final Rendered setFeed;
    final Rendered feeds;
    final Rendered namespaces;
    final Rendered addNamespace;
    final Rendered removeNamespace;
    final Rendered space;
    final Rendered deleteSpace;
    final Rendered setSpace;
    final Rendered spaces;

    Queries(DSLContext sql) {
      feed = Rendered.of(sql.select(FEED_REPLICATION.MODE, FEED_REPLICATION.FROM_POSITION, FEED_REPLICATION.SINCE_MILLIS)
          .from(FEED_REPLICATION).where(FEED_REPLICATION.FEED_PRIVATE_ID.eq(Params.FEED)), Params.FEED);
      deleteFeed = Rendered.of(sql.deleteFrom(FEED_REPLICATION).where(FEED_REPLICATION.FEED_PRIVATE_ID.eq(Params.FEED)),
          Params.FEED);
      setFeed = Rendered.of(sql.insertInto(FEED_REPLICATION, FEED_REPLICATION.FEED_PRIVATE_ID, FEED_REPLICATION.MODE,
          FEED_REPLICATION.FROM_POSITION, FEED_REPLICATION.SINCE_MILLIS).values(Params.FEED, MODE, FROM_POSITION,
          SINCE_MILLIS).onConflict(FEED_REPLICATION.FEED_PRIVATE_ID).doUpdate()
          .set(FEED_REPLICATION.MODE, excluded(FEED_REPLICATION.MODE))
          .set(FEED_REPLICATION.FROM_POSITION, excluded(FEED_REPLICATION.FROM_POSITION))
          .set(FEED_REPLICATION.SINCE_MILLIS, excluded(FEED_REPLICATION.SINCE_MILLIS)),
          Params.FEED, MODE, FROM_POSITION, SINCE_MILLIS);
      feeds = Rendered.of(sql.select(FEED_REPLICATION.MODE, FEED_REPLICATION.FROM_POSITION,
          FEED_REPLICATION.SINCE_MILLIS, FEEDS.FEED_ID).from(FEED_REPLICATION).join(FEEDS)
          .on(FEEDS.FEED_PRIVATE_ID.eq(FEED_REPLICATION.FEED_PRIVATE_ID)).where(FEEDS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .orderBy(FEEDS.FEED_ID), Params.SPACE);
      namespaces = Rendered.of(sql.select(NAMESPACE_REPLICATION.NAMESPACE).from(NAMESPACE_REPLICATION)
          .where(NAMESPACE_REPLICATION.SPACE_PRIVATE_ID.eq(Params.SPACE)), Params.SPACE);
      addNamespace = Rendered.of(sql.insertInto(NAMESPACE_REPLICATION, NAMESPACE_REPLICATION.SPACE_PRIVATE_ID,
          NAMESPACE_REPLICATION.NAMESPACE).values(Params.SPACE, Params.NAMESPACE).onConflictDoNothing(),
          Params.SPACE, Params.NAMESPACE);
      removeNamespace = Rendered.of(sql.deleteFrom(NAMESPACE_REPLICATION)
          .where(NAMESPACE_REPLICATION.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(NAMESPACE_REPLICATION.NAMESPACE.eq(Params.NAMESPACE)), Params.SPACE, Params.NAMESPACE);
      space = Rendered.of(sql.select(SPACE_REPLICATION.MODE, SPACE_REPLICATION.FROM_POSITION,
          SPACE_REPLICATION.SINCE_MILLIS).from(SPACE_REPLICATION).where(SPACE_REPLICATION.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      deleteSpace = Rendered.of(sql.deleteFrom(SPACE_REPLICATION).where(SPACE_REPLICATION.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      setSpace = Rendered.of(sql.insertInto(SPACE_REPLICATION, SPACE_REPLICATION.SPACE_PRIVATE_ID,
          SPACE_REPLICATION.MODE, SPACE_REPLICATION.FROM_POSITION, SPACE_REPLICATION.SINCE_MILLIS)
          .values(Params.SPACE, MODE, FROM_POSITION, SINCE_MILLIS).onConflict(SPACE_REPLICATION.SPACE_PRIVATE_ID)
          .doUpdate().set(SPACE_REPLICATION.MODE, excluded(SPACE_REPLICATION.MODE))
          .set(SPACE_REPLICATION.FROM_POSITION, excluded(SPACE_REPLICATION.FROM_POSITION))
          .set(SPACE_REPLICATION.SINCE_MILLIS, excluded(SPACE_REPLICATION.SINCE_MILLIS)),
          Params.SPACE, MODE, FROM_POSITION, SINCE_MILLIS);
      Field<Long> space = SPACES.SPACE_PRIVATE_ID;
      spaces = Rendered.of(sql.select(SPACES.SPACE_ID).from(SPACES)
          .where(exists(selectOne().from(FEEDS).join(FEED_REPLICATION)
              .on(FEED_REPLICATION.FEED_PRIVATE_ID.eq(FEEDS.FEED_PRIVATE_ID)).where(FEEDS.SPACE_PRIVATE_ID.eq(space))))
          .or(exists(selectOne().from(NAMESPACE_REPLICATION).where(NAMESPACE_REPLICATION.SPACE_PRIVATE_ID.eq(space))))
          .or(exists(selectOne().from(SPACE_REPLICATION).where(SPACE_REPLICATION.SPACE_PRIVATE_ID.eq(space)))));
    }
  }

  private final SqliteTransaction tx;

  SqliteReplicationPolicies(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Replication feed(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId)
        .flatMap(feed -> tx.sql().one(QUERIES.feed, SqliteReplicationPolicies::policy, feed.privateId()))
        .orElse(Replication.NONE);
  }

  @Override
  public void setFeed(SpaceId spaceId, FeedId feedId, Replication policy) {
    FeedRow feed = tx.requireFeed(spaceId, feedId);
    if (policy instanceof Replication.None) {
      tx.sql().update(QUERIES.deleteFeed, feed.privateId());
      return;
    }
    tx.sql().update(QUERIES.setFeed, feed.privateId(), mode(policy), from(policy), since(policy));
  }

  @Override
  public Map<FeedId, Replication> feeds(SpaceId spaceId) {
    Map<FeedId, Replication> result = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return result;
    }
    Rendered feeds = QUERIES.feeds;
    tx.sql().list(feeds, rs -> result.put(new FeedId(feeds.getString(rs, FEEDS.FEED_ID)), policy(rs)), space.get());
    return result;
  }

  @Override
  public Set<Namespace> namespaces(SpaceId spaceId) {
    Set<Namespace> result = new TreeSet<>();
    tx.findSpace(spaceId).ifPresent(space -> tx.sql().list(QUERIES.namespaces,
        rs -> result.add(new Namespace(rs.getString(1))), space));
    return result;
  }

  @Override
  public void setNamespace(SpaceId spaceId, Namespace namespace, boolean replicated) {
    if (replicated) {
      tx.sql().update(QUERIES.addNamespace, tx.space(spaceId), namespace.value());
    } else {
      tx.findSpace(spaceId).ifPresent(space -> tx.sql().update(QUERIES.removeNamespace, space, namespace.value()));
    }
  }

  @Override
  public Replication space(SpaceId spaceId) {
    return tx.findSpace(spaceId)
        .flatMap(space -> tx.sql().one(QUERIES.space, SqliteReplicationPolicies::policy, space))
        .orElse(Replication.NONE);
  }

  @Override
  public void setSpace(SpaceId spaceId, Replication policy) {
    if (policy instanceof Replication.None) {
      tx.findSpace(spaceId).ifPresent(space -> tx.sql().update(QUERIES.deleteSpace, space));
      return;
    }
    tx.sql().update(QUERIES.setSpace, tx.space(spaceId), mode(policy), from(policy), since(policy));
  }

  @Override
  public Set<SpaceId> spaces() {
    Set<SpaceId> result = new TreeSet<>();
    tx.sql().list(QUERIES.spaces, rs -> result.add(new SpaceId(rs.getString(1))));
    return result;
  }

  /** The policy of a row whose first columns are mode, from_position and since_millis. */
  private static Replication policy(ResultSet rs) throws SQLException {
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
