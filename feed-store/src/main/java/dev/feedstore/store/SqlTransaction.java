package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SPACES;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.BlockLog;
import dev.feedstore.core.store.FeedCatalog;
import dev.feedstore.core.store.ServerTokens;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.Subscriptions;
import dev.feedstore.core.store.UnknownFeedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;

/**
 * One transaction of a store, the one implementation of the authority's views over the generated
 * schema ({@link SqlFeedCatalog}, {@link SqlBlockLog}, {@link SqlServerTokens}, {@link
 * SqlSubscriptions}, {@link SqlStreamCatalog}), and the row-id bookkeeping they share: the private ids
 * of spaces and the rows of feeds ({@link IdCache}; a store that trusts nothing in memory beyond a
 * transaction gives each transaction a cache of its own), and the counts of feeds and blocks, written
 * once at the end ({@link #flush}). A replica's store extends it with the replica's views.
 *
 * <p>Not thread-safe; lives only while its work runs.
 */
public class SqlTransaction implements AuthorityTransaction {
  /** The statements of the bookkeeping, rendered once per dialect. */
  static final class Queries {
    final Rendered findSpace;
    final Rendered createSpace;
    final Rendered findFeed;
    final Rendered feedById;
    final Rendered createFeed;
    final Rendered addBlocks;
    final Rendered addFeeds;

    Queries(DSLContext sql) {
      findSpace = Rendered.of(sql.select(SPACES.SPACE_PRIVATE_ID).from(SPACES).where(SPACES.SPACE_ID.eq(Params.SPACE_ID)),
          Params.SPACE_ID);
      // Another process may store the space first: then nothing is returned, and it is read again.
      createSpace = Rendered.of(sql.insertInto(SPACES, SPACES.SPACE_ID).values(Params.SPACE_ID).onConflictDoNothing()
          .returningResult(SPACES.SPACE_PRIVATE_ID), Params.SPACE_ID);
      findFeed = Rendered.of(sql.select(FEEDS.FEED_PRIVATE_ID, FEEDS.FEED_NAMESPACE).from(FEEDS)
          .where(FEEDS.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(FEEDS.FEED_ID.eq(Params.FEED_ID)),
          Params.SPACE, Params.FEED_ID);
      feedById = Rendered.of(sql.select(FEEDS.SPACE_PRIVATE_ID, FEEDS.FEED_ID, FEEDS.FEED_NAMESPACE).from(FEEDS)
          .where(FEEDS.FEED_PRIVATE_ID.eq(Params.FEED)), Params.FEED);
      createFeed = Rendered.of(sql.insertInto(FEEDS, FEEDS.SPACE_PRIVATE_ID, FEEDS.FEED_ID, FEEDS.FEED_NAMESPACE)
          .values(Params.SPACE, Params.FEED_ID, Params.NAMESPACE).onConflictDoNothing()
          .returningResult(FEEDS.FEED_PRIVATE_ID), Params.SPACE, Params.FEED_ID, Params.NAMESPACE);
      addBlocks = Rendered.of(sql.update(FEEDS).set(FEEDS.BLOCK_COUNT, FEEDS.BLOCK_COUNT.plus(Params.DELTA))
          .where(FEEDS.FEED_PRIVATE_ID.eq(Params.FEED)), Params.DELTA, Params.FEED);
      addFeeds = Rendered.of(sql.update(SPACES).set(SPACES.FEED_COUNT, SPACES.FEED_COUNT.plus(Params.DELTA))
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)), Params.DELTA, Params.SPACE);
    }
  }

  private final StoreDialect dialect;
  private final StoreQueries queries;
  private final Sql sql;
  private final IdCache.Pending ids;
  private final TokenKey tokenKey;
  private final boolean writable;
  /** Block count changes by feed private id, sorted so that rows are always updated in one order. */
  private final Map<Long, Long> blockCountDeltas = new TreeMap<>();
  /** Feed count changes by space private id, likewise sorted. */
  private final Map<Long, Long> feedCountDeltas = new TreeMap<>();

  private SqlFeedCatalog feeds;
  private SqlBlockLog blocks;
  private SqlServerTokens serverTokens;
  private SqlSubscriptions subscriptions;
  private SqlStreamCatalog streams;

  /**
   * @param ids the rows this transaction may take from memory, and where it records what it reads
   * @param tokenKey where the store keeps its token secret once read
   */
  public SqlTransaction(StoreDialect dialect, Sql sql, IdCache.Pending ids, TokenKey tokenKey, boolean writable) {
    this.dialect = dialect;
    this.queries = StoreQueries.of(dialect);
    this.sql = sql;
    this.ids = ids;
    this.tokenKey = tokenKey;
    this.writable = writable;
  }

  @Override
  public FeedCatalog feeds() {
    if (feeds == null) {
      feeds = new SqlFeedCatalog(this);
    }
    return feeds;
  }

  @Override
  public BlockLog blocks() {
    if (blocks == null) {
      blocks = newBlockLog();
    }
    return blocks;
  }

  @Override
  public ServerTokens serverTokens() {
    if (serverTokens == null) {
      serverTokens = new SqlServerTokens(this);
    }
    return serverTokens;
  }

  @Override
  public Subscriptions subscriptions() {
    if (subscriptions == null) {
      subscriptions = new SqlSubscriptions(this);
    }
    return subscriptions;
  }

  @Override
  public StreamCatalog streams() {
    if (streams == null) {
      streams = new SqlStreamCatalog(this);
    }
    return streams;
  }

  /** In the dialect's way ({@link StoreDialect#append}). */
  @Override
  public List<SpaceAppend.Stored> append(List<SpaceAppend> appends) {
    if (!writable) {
      throw new IllegalStateException("blocks are appended in a write transaction, not in a read");
    }
    return dialect.append(this, appends);
  }

  /** The block log of this transaction, made once; a replica's store makes its own kind. */
  protected SqlBlockLog newBlockLog() {
    return new SqlBlockLog(this);
  }

  public StoreDialect dialect() {
    return dialect;
  }

  public StoreQueries queries() {
    return queries;
  }

  /** Runs this transaction's statements. */
  public Sql sql() {
    return sql;
  }

  /** The rows this transaction takes from memory and records. */
  public IdCache.Pending ids() {
    return ids;
  }

  public boolean writable() {
    return writable;
  }

  TokenKey tokenKey() {
    return tokenKey;
  }

  /** The private id of the space, if the store has it. */
  public Optional<Long> findSpace(SpaceId spaceId) {
    Long cached = ids.space(spaceId);
    if (cached != null) {
      return Optional.of(cached);
    }
    Long id = sql.longValue(queries.rows.findSpace, spaceId.value());
    if (id != null) {
      ids.putSpace(spaceId, id);
    }
    return Optional.ofNullable(id);
  }

  /** The private id of the space, made if the store does not have it (by this or another process). */
  public long space(SpaceId spaceId) {
    Optional<Long> found = findSpace(spaceId);
    if (found.isPresent()) {
      return found.get();
    }
    Long id = sql.longValue(queries.rows.createSpace, spaceId.value());
    if (id == null) {
      // Another transaction stored it since; a write's statements see what committed before them.
      id = sql.longValue(queries.rows.findSpace, spaceId.value());
      if (id == null) {
        throw new IllegalStateException("space " + spaceId + " was neither stored nor found");
      }
    }
    ids.putSpace(spaceId, id);
    return id;
  }

  public Optional<FeedRow> findFeed(SpaceId spaceId, FeedId feedId) {
    Optional<Long> space = findSpace(spaceId);
    return space.isEmpty() ? Optional.empty() : findFeed(space.get(), feedId);
  }

  public Optional<FeedRow> findFeed(long spacePrivateId, FeedId feedId) {
    FeedRow cached = ids.feed(spacePrivateId, feedId);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<FeedRow> row = sql.one(queries.rows.findFeed, rs -> new FeedRow(rs.getLong(1), spacePrivateId, feedId,
        Optional.ofNullable(rs.getString(2)).map(Namespace::new)), spacePrivateId, feedId.value());
    row.ifPresent(ids::putFeed);
    return row;
  }

  /** The feed row with private id {@code privateId}, which the store must hold. */
  public FeedRow feedById(long privateId) {
    FeedRow cached = ids.feedById(privateId);
    if (cached != null) {
      return cached;
    }
    FeedRow row = sql.one(queries.rows.feedById, rs -> new FeedRow(privateId, rs.getLong(1), new FeedId(rs.getString(2)),
        Optional.ofNullable(rs.getString(3)).map(Namespace::new)), privateId)
        .orElseThrow(() -> new IllegalStateException("no feed has private id " + privateId));
    ids.putFeed(row);
    return row;
  }

  public FeedRow requireFeed(SpaceId spaceId, FeedId feedId) {
    return findFeed(spaceId, feedId).orElseThrow(() -> new UnknownFeedException(spaceId, feedId));
  }

  /** The feed, created with {@code namespace} unless the store has it; counted in its space when created. */
  FeedRow createFeed(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    long spacePrivateId = space(spaceId);
    Optional<FeedRow> existing = findFeed(spacePrivateId, feedId);
    if (existing.isPresent()) {
      return existing.get();
    }
    Long id = sql.longValue(queries.rows.createFeed, spacePrivateId, feedId.value(),
        namespace.map(Namespace::value).orElse(null));
    if (id == null) {
      // Another process stored it since.
      return findFeed(spacePrivateId, feedId).orElseThrow(() ->
          new IllegalStateException("feed " + feedId + " was neither stored nor found"));
    }
    FeedRow row = new FeedRow(id, spacePrivateId, feedId, namespace);
    ids.putFeed(row);
    feedCountDeltas.merge(spacePrivateId, 1L, Long::sum);
    return row;
  }

  /** How many feeds this transaction created in the space so far. */
  long pendingFeedCount(long spacePrivateId) {
    return feedCountDeltas.getOrDefault(spacePrivateId, 0L);
  }

  /** Counts {@code delta} more blocks (fewer, when negative) in the feed, written at {@link #flush}. */
  public void countBlocks(long feedPrivateId, long delta) {
    blockCountDeltas.merge(feedPrivateId, delta, Long::sum);
  }

  /** How many blocks this transaction added to the feed so far (removed ones subtracted). */
  long pendingBlockCount(long feedPrivateId) {
    return blockCountDeltas.getOrDefault(feedPrivateId, 0L);
  }

  /**
   * Writes what was deferred to the end of the transaction, one batch per table whatever the number
   * of rows (an append interleaving a hundred feeds counts in all of them); call just before commit.
   */
  public void flush() {
    flush(blockCountDeltas, queries.rows.addBlocks);
    flush(feedCountDeltas, queries.rows.addFeeds);
  }

  /** Adds each delta to the row of its id, with {@code statement}, whose parameters are the delta and the id. */
  private void flush(Map<Long, Long> deltas, Rendered statement) {
    deltas.values().removeIf(delta -> delta == 0);
    List<Object[]> rows = new ArrayList<>(deltas.size());
    deltas.forEach((id, delta) -> rows.add(new Object[] {delta, id}));
    deltas.clear();
    sql.batch(statement, rows);
  }
}
