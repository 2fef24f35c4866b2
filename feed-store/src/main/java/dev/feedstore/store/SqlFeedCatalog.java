package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SPACES;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.selectOne;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ReplicaFeedCatalog;
import dev.feedstore.store.schema.tables.Blocks;
import dev.feedstore.store.schema.tables.Feeds;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;

/**
 * The feeds of a store, with their counts, over the {@code feeds} table: the {@link
 * dev.feedstore.core.store.FeedCatalog} of every store, and the one move of a replica's ({@link
 * ReplicaFeedCatalog#adoptNamespace}), which only a replica's transaction offers.
 */
final class SqlFeedCatalog implements ReplicaFeedCatalog {
  /** Lookups by a list of feed ids bind at most this many at once. */
  private static final int LOOKUP_CHUNK = 500;

  /** The statements of the catalog, rendered once per dialect (lookups of several feeds once per shape). */
  static final class Queries {
    private static final Feeds F = FEEDS.as("f");
    private static final Blocks B = BLOCKS.as("b");
    private static final Field<Long> LAST = DSL.field(DSL.select(max(B.POSITION)).from(B)
        .where(B.FEED_PRIVATE_ID.eq(F.FEED_PRIVATE_ID)));

    final Rendered info;
    final Rendered adoptNamespace;
    final Rendered count;
    final Rendered spaces;
    /** A page of feeds: by whether a namespace is given, then whether an id to start after is. */
    final Rendered[][] list = new Rendered[2][2];
    private final DSLContext sql;
    private final StoreDialect dialect;
    private final Map<Integer, Rendered> namespaces = new ConcurrentHashMap<>();

    Queries(DSLContext sql, StoreDialect dialect) {
      this.sql = sql;
      this.dialect = dialect;
      info = Rendered.of(sql.select(F.BLOCK_COUNT, LAST).from(F).where(F.FEED_PRIVATE_ID.eq(Params.FEED)), Params.FEED);
      adoptNamespace = Rendered.of(sql.update(FEEDS).set(FEEDS.FEED_NAMESPACE, Params.NAMESPACE)
          .where(FEEDS.FEED_PRIVATE_ID.eq(Params.FEED)).and(FEEDS.FEED_NAMESPACE.isNull()), Params.NAMESPACE, Params.FEED);
      count = Rendered.of(sql.select(SPACES.FEED_COUNT).from(SPACES).where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.SPACE);
      spaces = Rendered.of(sql.select(SPACES.SPACE_ID).from(SPACES)
          .where(exists(selectOne().from(F).where(F.SPACE_PRIVATE_ID.eq(SPACES.SPACE_PRIVATE_ID))))
          .orderBy(SPACES.SPACE_ID));
      for (int byNamespace = 0; byNamespace < 2; byNamespace++) {
        for (int byAfter = 0; byAfter < 2; byAfter++) {
          List<Param<?>> params = new ArrayList<>(List.of(Params.SPACE));
          Condition condition = F.SPACE_PRIVATE_ID.eq(Params.SPACE);
          if (byNamespace == 1) {
            condition = condition.and(F.FEED_NAMESPACE.eq(Params.NAMESPACE));
            params.add(Params.NAMESPACE);
          }
          if (byAfter == 1) {
            condition = condition.and(F.FEED_ID.gt(Params.FEED_ID));
            params.add(Params.FEED_ID);
          }
          params.add(Params.LIMIT);
          list[byNamespace][byAfter] = Rendered.of(sql.select(F.FEED_PRIVATE_ID, F.FEED_ID, F.FEED_NAMESPACE,
              F.BLOCK_COUNT, LAST).from(F).where(condition).orderBy(F.FEED_ID).limit(Params.LIMIT),
              params.toArray(Param<?>[]::new));
        }
      }
    }

    /** The rows of {@code count} feeds of a space, by their ids (one text for every count of a shape). */
    Rendered namespaces(int count) {
      return namespaces.computeIfAbsent(dialect.anyOfShape(count), shape -> {
        Condition ids = dialect.anyOf(FEEDS.FEED_ID, "feed_ids", count);
        return Rendered.of(sql.select(FEEDS.FEED_PRIVATE_ID, FEEDS.FEED_ID, FEEDS.FEED_NAMESPACE).from(FEEDS)
            .where(FEEDS.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(ids), Params.SPACE, ids);
      });
    }
  }

  private final SqlTransaction tx;
  private final Queries queries;

  SqlFeedCatalog(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().feeds;
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
   * The feeds whose rows the transaction holds already, and one statement for the others (an append
   * asks for every feed of its blocks), whose rows it keeps, so that storing the blocks reads none of
   * them again.
   */
  @Override
  public Map<FeedId, Optional<Namespace>> namespaces(SpaceId spaceId, Collection<FeedId> feedIds) {
    Map<FeedId, Optional<Namespace>> result = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty() || feedIds.isEmpty()) {
      return result;
    }
    List<String> missing = new ArrayList<>();
    for (FeedId feedId : feedIds) {
      if (tx.ids().feed(space.get(), feedId) == null) {
        missing.add(feedId.value());
      }
    }
    for (int from = 0; from < missing.size(); from += LOOKUP_CHUNK) {
      List<String> chunk = missing.subList(from, Math.min(missing.size(), from + LOOKUP_CHUNK));
      List<Object> parameters = new ArrayList<>(chunk.size() + 1);
      parameters.add(space.get());
      parameters.addAll(tx.dialect().anyOfValues(chunk));
      Rendered lookup = queries.namespaces(chunk.size());
      tx.sql().list(lookup, rs -> {
        tx.ids().putFeed(new FeedRow(lookup.getLong(rs, FEEDS.FEED_PRIVATE_ID), space.get(),
            new FeedId(lookup.getString(rs, FEEDS.FEED_ID)),
            Optional.ofNullable(lookup.getString(rs, FEEDS.FEED_NAMESPACE)).map(Namespace::new)));
        return null;
      }, parameters.toArray());
    }
    for (FeedId feedId : feedIds) {
      FeedRow row = tx.ids().feed(space.get(), feedId);
      if (row != null) {
        result.put(feedId, row.namespace());
      }
    }
    return result;
  }

  @Override
  public boolean adoptNamespace(SpaceId spaceId, FeedId feedId, Namespace namespace) {
    Optional<FeedRow> row = tx.findFeed(spaceId, feedId);
    if (row.isEmpty() || row.get().namespace().isPresent()) {
      return false;
    }
    int changed = tx.sql().update(queries.adoptNamespace, namespace.value(), row.get().privateId());
    if (changed == 1) {
      tx.ids().replaceFeed(new FeedRow(row.get().privateId(), row.get().spacePrivateId(), feedId,
          Optional.of(namespace)));
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
    List<Object> parameters = new ArrayList<>(4);
    parameters.add(space.get());
    namespace.ifPresent(n -> parameters.add(n.value()));
    after.ifPresent(a -> parameters.add(a.value()));
    parameters.add(limit);
    Rendered page = queries.list[namespace.isPresent() ? 1 : 0][after.isPresent() ? 1 : 0];
    return tx.sql().list(page, rs -> {
      long privateId = page.getLong(rs, Queries.F.FEED_PRIVATE_ID);
      return new FeedInfo(spaceId, new FeedId(page.getString(rs, Queries.F.FEED_ID)),
          Optional.ofNullable(page.getString(rs, Queries.F.FEED_NAMESPACE)).map(Namespace::new),
          page.getLong(rs, Queries.F.BLOCK_COUNT) + tx.pendingBlockCount(privateId),
          positionOf(page.getNullableLong(rs, Queries.LAST)));
    }, parameters.toArray());
  }

  @Override
  public long count(SpaceId spaceId) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return 0;
    }
    Long stored = tx.sql().longValue(queries.count, space.get());
    return (stored == null ? 0 : stored) + tx.pendingFeedCount(space.get());
  }

  @Override
  public List<SpaceId> spaces() {
    return tx.sql().list(queries.spaces, rs -> new SpaceId(queries.spaces.getString(rs, SPACES.SPACE_ID)));
  }

  static Position positionOf(Long value) {
    return value == null ? Position.NONE : Position.of(value);
  }

  private FeedInfo info(SpaceId spaceId, FeedRow row) {
    Rendered info = queries.info;
    return tx.sql().one(info, rs -> new FeedInfo(spaceId, row.feedId(), row.namespace(),
        info.getLong(rs, Queries.F.BLOCK_COUNT) + tx.pendingBlockCount(row.privateId()),
        positionOf(info.getNullableLong(rs, Queries.LAST))), row.privateId()).orElseThrow(() -> new IllegalStateException("feed " + row.feedId() + " has no row"));
  }
}
