package dev.feedstore.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;

/**
 * Every statement of the shared store views, rendered for one dialect the first time a store of it
 * opens, then kept for every store and transaction of that dialect: no statement is rendered per
 * call. Statements over lists of values are rendered once per shape of list (see {@link
 * StoreDialect#anyOfShape}). Thread-safe.
 */
public final class StoreQueries {
  private static final Map<SQLDialect, StoreQueries> BY_DIALECT = new ConcurrentHashMap<>();
  /** A scope of one feed and one namespace, whose statement stands for those of every scope. */
  private static final Scope ONE_OF_EACH = Scope.of(Set.of(new FeedId("00000000000000000000000000")),
      Set.of(new Namespace("n")));

  final SqlTransaction.Queries rows;
  final SqlFeedCatalog.Queries feeds;
  final SqlBlockLog.Queries blocks;
  final SqlFloors.Queries floors;
  final SqlServerTokens.Queries tokens;
  final SqlSubscriptions.Queries subscriptions;
  final SqlStreamCatalog.Queries streams;

  private StoreQueries(StoreDialect dialect) {
    DSLContext sql = Rendering.of(dialect.family());
    rows = new SqlTransaction.Queries(sql);
    feeds = new SqlFeedCatalog.Queries(sql, dialect);
    blocks = new SqlBlockLog.Queries(sql, dialect);
    floors = new SqlFloors.Queries(sql, dialect);
    tokens = new SqlServerTokens.Queries(sql);
    subscriptions = new SqlSubscriptions.Queries(sql);
    streams = new SqlStreamCatalog.Queries(sql, dialect);
  }

  /** The statements of {@code dialect}, rendered by its first caller. */
  public static StoreQueries of(StoreDialect dialect) {
    return BY_DIALECT.computeIfAbsent(dialect.family(), family -> new StoreQueries(dialect));
  }

  /**
   * The statements of the hot paths by name, as rendered: an append's claim, receive time, chain
   * and batch insert and the counts it writes; the lookups of spaces and feeds; a page after a
   * cursor (of a whole space and of a scope of one feed and one namespace), the block at a position
   * and the highest position; the floor. For tests that pin them, so that a change of what the
   * store runs shows in review.
   */
  public Map<String, String> hotStatements() {
    Map<String, String> hot = new LinkedHashMap<>();
    hot.put("find space", rows.findSpace.sql());
    hot.put("create space", rows.createSpace.sql());
    hot.put("find feed", rows.findFeed.sql());
    hot.put("feed by id", rows.feedById.sql());
    hot.put("create feed", rows.createFeed.sql());
    hot.put("feeds by id (3)", feeds.namespaces(3).sql());
    hot.put("feed count", feeds.count.sql());
    hot.put("claim positions", blocks.claim.sql());
    hot.put("hold positions", blocks.hold.sql());
    hot.put("stamp receipt", blocks.stamp.sql());
    hot.put("chain at", blocks.chainAt.sql());
    hot.put("insert blocks", blocks.insert.statement().sql());
    hot.put("count blocks", rows.addBlocks.sql());
    hot.put("count feeds", rows.addFeeds.sql());
    hot.put("block by key", blocks.byKey.sql());
    hot.put("block at position", blocks.atPosition.sql());
    hot.put("max position", blocks.maxPosition.sql());
    hot.put("page after", blocks.after.statement(Scope.WHOLE_SPACE).sql());
    hot.put("page after in scope (1 feed, 1 namespace)", blocks.after.statement(ONE_OF_EACH).sql());
    hot.put("page between", blocks.between.statement(Scope.WHOLE_SPACE).sql());
    hot.put("floor", floors.floor.sql());
    hot.put("server token", tokens.find.sql());
    hot.put("stream", streams.find.sql());
    return hot;
  }
}
