package dev.feedstore.store;

import java.util.Map;
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
    streams = new SqlStreamCatalog.Queries(sql);
  }

  /** The statements of {@code dialect}, rendered by its first caller. */
  public static StoreQueries of(StoreDialect dialect) {
    return BY_DIALECT.computeIfAbsent(dialect.family(), family -> new StoreQueries(dialect));
  }
}
