package dev.feedstore.sqlite.internal;

import static dev.feedstore.store.SqlBlockLog.B;
import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SET_ASIDE_BLOCKS;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.orderBy;
import static org.jooq.impl.DSL.sum;
import static org.jooq.impl.DSL.table;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.core.store.ReplicaBlockLog;
import dev.feedstore.core.store.UniquenessViolationException;
import dev.feedstore.store.BlockInsert;
import dev.feedstore.store.FeedRow;
import dev.feedstore.store.Params;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Rendering;
import dev.feedstore.store.ScopedQuery;
import dev.feedstore.store.SqlBlockLog;
import dev.feedstore.store.SqlFailure;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SelectJoinStep;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A replica's {@link ReplicaBlockLog}: the authority's block log every store shares ({@link
 * SqlBlockLog}), and the moves only a replica makes with its blocks: unpositioned blocks and their
 * push, positions set and cleared, re-keying and merging, published marks, set-aside blocks. SQLite
 * only (replicas keep their blocks in SQLite), over the same generated schema classes. Not
 * thread-safe (as its transaction).
 */
final class SqliteReplicaBlockLog extends SqlBlockLog implements ReplicaBlockLog {
  /** Lookups by a list of values bind at most this many at once. */
  private static final int LOOKUP_CHUNK = 500;
  /**
   * Values asked about are looked up as one range when the range is at most this many times as
   * long as the list: it then reads at most that many rows per value asked about.
   */
  private static final int DENSE = 4;
  private static final Queries QUERIES = new Queries(Rendering.of(SqliteDialect.INSTANCE.family()));

  /** The statements that read a feed's unpositioned blocks, by name, for checks of their query plans. */
  static Map<String, String> unpositionedStatements() {
    Scope feeds = Scope.feeds(Set.of(new FeedId("01J0000000000000000000000A"), new FeedId("01J0000000000000000000000B")));
    Scope namespace = Scope.namespace(new Namespace("n"));
    return Map.of("last unpositioned", QUERIES.lastUnpositioned.sql(),
        "feed unpositioned", QUERIES.feedUnpositioned.sql(),
        "push, whole space", QUERIES.unpositionedWithin(0).statement(Scope.WHOLE_SPACE).sql(),
        "push of feeds, some left out", QUERIES.unpositionedWithin(2).statement(feeds).sql(),
        "push of a namespace", QUERIES.unpositionedWithin(0).statement(namespace).sql(),
        "unpositioned, whole space", QUERIES.unpositioned.statement(Scope.WHOLE_SPACE).sql(),
        "larger than a push takes", QUERIES.unpositionedLarger.statement(namespace).sql());
  }

  /** The replica's statements, rendered once (lookups by a list of values once per length). */
  private static final class Queries {
    /** The push order: by feed, then sequence and actor. */
    private static final List<SortField<?>> PUSH_ORDER = List.of(B.FEED_PRIVATE_ID.asc(), B.SEQUENCE.asc(),
        B.ACTOR_ID.asc());
    private static final Param<Long> PUBLISHED = Params.number("published");
    private static final Param<Long> FIRST = Params.number("first");
    private static final Param<Long> LAST = Params.number("last");
    private static final Param<Long> NEW_SEQUENCE = Params.number("new_sequence");
    private static final Param<String> PREV_ACTOR = Params.text("prev_actor");
    private static final Param<Long> PREV_SEQUENCE = Params.number("prev_sequence");
    private static final Param<Integer> MAX_BLOCK_DATA = DSL.param("max_block_data", SQLDataType.INTEGER);
    private static final Param<Long> MAX_DATA = Params.number("max_data");
    private static final Param<Long> LEFT_OUT_SPACE = Params.number("left_out_space");
    private static final Param<Long> RECEIVED_AT = Params.number("received_at");
    /** The size of a block's data: SQLite reads it from the record header, without the data. */
    private static final Field<Integer> SIZE = function("length", SQLDataType.INTEGER, B.DATA);
    /** The columns of a block row, as {@link #setAside} copies them. */
    private static final List<TableField<?, ?>> ROW = List.of(BLOCKS.SPACE_PRIVATE_ID, BLOCKS.FEED_PRIVATE_ID,
        BLOCKS.POSITION, BLOCKS.SEQUENCE, BLOCKS.ACTOR_ID, BLOCKS.PREV_SEQUENCE, BLOCKS.PREV_ACTOR_ID,
        BLOCKS.TIMESTAMP, BLOCKS.DATA, BLOCKS.PUBLISHED, BLOCKS.CHAIN, BLOCKS.CHECKSUM);
    private static final List<TableField<?, ?>> SET_ASIDE_ROW = List.of(SET_ASIDE_BLOCKS.SPACE_PRIVATE_ID,
        SET_ASIDE_BLOCKS.FEED_PRIVATE_ID, SET_ASIDE_BLOCKS.POSITION, SET_ASIDE_BLOCKS.SEQUENCE,
        SET_ASIDE_BLOCKS.ACTOR_ID, SET_ASIDE_BLOCKS.PREV_SEQUENCE, SET_ASIDE_BLOCKS.PREV_ACTOR_ID,
        SET_ASIDE_BLOCKS.TIMESTAMP, SET_ASIDE_BLOCKS.DATA, SET_ASIDE_BLOCKS.PUBLISHED, SET_ASIDE_BLOCKS.CHAIN,
        SET_ASIDE_BLOCKS.CHECKSUM);

    final BlockInsert insertLocal;
    final Rendered markPublished;
    final Rendered unpublished;
    final Rendered bySequenceRange;
    final Rendered positionRange;
    final Rendered feedPositioned;
    final Rendered feedUnpositioned;
    final Rendered lastPositioned;
    final Rendered lastUnpositioned;
    final Rendered maxSequence;
    final Rendered setAside;
    final Rendered delete;
    final Rendered chainedAtOrBelow;
    final Rendered forgetChains;
    final Rendered lastBefore;
    final Rendered setPosition;
    final Rendered clearPositions;
    final Rendered clearPositionsAbove;
    final Rendered rekey;
    final Rendered followers;
    final Rendered relink;
    final ScopedQuery unpositioned;
    private final Map<Integer, ScopedQuery> unpositionedWithin = new ConcurrentHashMap<>();
    final ScopedQuery unpositionedLarger;
    final ScopedQuery countUnpositioned;
    private final DSLContext sql;
    private final Map<Integer, Rendered> bySequences = new ConcurrentHashMap<>();
    private final Map<Integer, Rendered> atPositions = new ConcurrentHashMap<>();

    Queries(DSLContext sql) {
      this.sql = sql;
      SqliteDialect dialect = SqliteDialect.INSTANCE;
      insertLocal = BlockInsert.of(sql, BLOCKS.PUBLISHED, 0L);
      markPublished = Rendered.of(sql.update(BLOCKS).set(BLOCKS.PUBLISHED, PUBLISHED).where(key()),
          PUBLISHED, Params.FEED, Params.SEQUENCE, Params.ACTOR);
      unpublished = Rendered.of(sql.select(count()).from(BLOCKS).where(key()).and(BLOCKS.PUBLISHED.eq(inline(0L))),
          Params.FEED, Params.SEQUENCE, Params.ACTOR);
      bySequenceRange = Rendered.of(select().where(B.FEED_PRIVATE_ID.eq(Params.FEED))
          .and(B.SEQUENCE.between(FIRST, LAST)), Params.FEED, FIRST, LAST);
      positionRange = Rendered.of(select().where(B.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(B.POSITION.between(FIRST, LAST)), Params.SPACE, FIRST, LAST);
      feedPositioned = Rendered.of(select().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.POSITION.isNotNull())
          .orderBy(B.POSITION), Params.FEED);
      feedUnpositioned = Rendered.of(selectUnpositioned().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.POSITION.isNull())
          .orderBy(B.SEQUENCE, B.ACTOR_ID), Params.FEED);
      lastPositioned = Rendered.of(select().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.POSITION.isNotNull())
          .orderBy(B.POSITION.desc()).limit(inline(1)), Params.FEED);
      lastUnpositioned = Rendered.of(selectUnpositioned().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.POSITION.isNull())
          .orderBy(B.SEQUENCE.desc(), B.ACTOR_ID.desc()).limit(inline(1)), Params.FEED);
      maxSequence = Rendered.of(sql.select(max(BLOCKS.SEQUENCE)).from(BLOCKS).where(BLOCKS.FEED_PRIVATE_ID.eq(Params.FEED)),
          Params.FEED);
      setAside = Rendered.of(sql.insertInto(SET_ASIDE_BLOCKS).columns(SET_ASIDE_ROW)
          .select(sql.select(ROW).from(BLOCKS).where(key())), Params.FEED, Params.SEQUENCE, Params.ACTOR);
      delete = Rendered.of(sql.deleteFrom(BLOCKS).where(key()), Params.FEED, Params.SEQUENCE, Params.ACTOR);
      // Backwards along (space, position) until a row with a chain: a replica records one a page.
      chainedAtOrBelow = Rendered.of(sql.select(BLOCKS.POSITION).from(BLOCKS)
          .where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(BLOCKS.POSITION.le(Params.POSITION))
          .and(BLOCKS.POSITION.isNotNull()).and(BLOCKS.CHAIN.isNotNull()).orderBy(BLOCKS.POSITION.desc())
          .limit(inline(1)), Params.SPACE, Params.POSITION);
      forgetChains = Rendered.of(sql.update(BLOCKS).set(BLOCKS.CHAIN, none(BLOCKS.CHAIN)).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.CHAIN.isNotNull()), Params.SPACE);
      lastBefore = Rendered.of(select().where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.lt(Params.POSITION))
          .orderBy(B.POSITION.desc()).limit(inline(1)), Params.SPACE, Params.POSITION);
      // A position belongs with its chain and receive time: moving it drops the chain and sets the
      // receive time the authority said with it (NULL when it said none).
      setPosition = Rendered.of(sql.update(BLOCKS).set(BLOCKS.POSITION, Params.POSITION).set(BLOCKS.CHAIN, none(BLOCKS.CHAIN))
          .set(BLOCKS.RECEIVED_AT, RECEIVED_AT).where(key()),
          Params.POSITION, RECEIVED_AT, Params.FEED, Params.SEQUENCE, Params.ACTOR);
      clearPositions = Rendered.of(sql.update(BLOCKS).set(BLOCKS.POSITION, none(BLOCKS.POSITION)).set(BLOCKS.CHAIN, none(BLOCKS.CHAIN))
          .set(BLOCKS.RECEIVED_AT, none(BLOCKS.RECEIVED_AT)).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.POSITION.isNotNull()), Params.SPACE);
      clearPositionsAbove = Rendered.of(sql.update(BLOCKS).set(BLOCKS.POSITION, none(BLOCKS.POSITION)).set(BLOCKS.CHAIN, none(BLOCKS.CHAIN))
          .set(BLOCKS.RECEIVED_AT, none(BLOCKS.RECEIVED_AT)).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.POSITION.gt(Params.POSITION)), Params.SPACE, Params.POSITION);
      rekey = Rendered.of(sql.update(BLOCKS).set(BLOCKS.SEQUENCE, NEW_SEQUENCE).set(BLOCKS.CHECKSUM, Params.CHECKSUM)
          .where(key()), NEW_SEQUENCE, Params.CHECKSUM, Params.FEED, Params.SEQUENCE, Params.ACTOR);
      followers = Rendered.of(select().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.PREV_ACTOR_ID.eq(PREV_ACTOR))
          .and(B.PREV_SEQUENCE.eq(PREV_SEQUENCE)).and(B.POSITION.isNull()).and(B.PUBLISHED.eq(inline(0L))),
          Params.FEED, PREV_ACTOR, PREV_SEQUENCE);
      relink = Rendered.of(sql.update(BLOCKS).set(BLOCKS.PREV_SEQUENCE, PREV_SEQUENCE)
          .set(BLOCKS.CHECKSUM, Params.CHECKSUM).where(key()),
          PREV_SEQUENCE, Params.CHECKSUM, Params.FEED, Params.SEQUENCE, Params.ACTOR);
      unpositioned = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(selectUnpositioned()
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.isNull()).and(scope).orderBy(PUSH_ORDER)
          .limit(Params.LIMIT), Params.SPACE, scope, Params.LIMIT));
      unpositionedLarger = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(sql
          .select(B.FEED_PRIVATE_ID, B.ACTOR_ID, B.SEQUENCE, SIZE).from(unpositionedIndex())
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(B.POSITION.isNull()).and(SIZE.gt(MAX_BLOCK_DATA)).and(scope).orderBy(PUSH_ORDER).limit(Params.LIMIT),
          Params.SPACE, MAX_BLOCK_DATA, scope, Params.LIMIT));
      countUnpositioned = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(sql.select(count()).from(B)
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.isNull()).and(scope), Params.SPACE, scope));
    }

    /**
     * The unpositioned blocks of a scope that a push may carry, but none of {@code leftOut} feeds
     * (one statement per number of them): its parameters are the space, the largest block, the feeds
     * left out ({@link #leftOut}), the scope's, the most blocks and the most data.
     */
    ScopedQuery unpositionedWithin(int leftOut) {
      return unpositionedWithin.computeIfAbsent(SqliteDialect.INSTANCE.anyOfShape(leftOut),
          shape -> new ScopedQuery(SqliteDialect.INSTANCE, B.FEED_PRIVATE_ID,
              scope -> within(sql, leftOutCondition(leftOut), scope)));
    }

    /** The blocks of none of {@code count} feeds, which the space and the ids of {@link #leftOut} name. */
    private static Condition leftOutCondition(int count) {
      if (SqliteDialect.INSTANCE.anyOfShape(count) == 0) {
        return DSL.noCondition();
      }
      return B.FEED_PRIVATE_ID.notIn(DSL.select(FEEDS.FEED_PRIVATE_ID).from(FEEDS)
          .where(FEEDS.SPACE_PRIVATE_ID.eq(LEFT_OUT_SPACE))
          .and(SqliteDialect.INSTANCE.anyOf(FEEDS.FEED_ID, "left_out", count)));
    }

    /** The values of {@link #leftOutCondition}'s parameters. */
    static List<Object> leftOut(long space, Set<FeedId> feeds) {
      if (feeds.isEmpty()) {
        return List.of();
      }
      List<Object> values = new ArrayList<>();
      values.add(space);
      values.addAll(SqliteDialect.INSTANCE.anyOfValues(feeds.stream().map(FeedId::value).sorted().toList()));
      return values;
    }

    /**
     * Three steps in one statement: the first candidates in push order, as ids and data sizes; a
     * running sum of their sizes; and the rows of those within the budget. So a push reads at most
     * {@code limit} candidates, like a plain {@code LIMIT}, and the data of the blocks it returns only.
     */
    private static Rendered within(DSLContext sql, Condition leftOut, Condition scope) {
      Field<Long> id = B.BLOCK_PRIVATE_ID.as("id");
      Field<Long> size = SIZE.coerce(SQLDataType.BIGINT).as("size");
      Field<Long> feed = B.FEED_PRIVATE_ID.as("f");
      Field<Long> sequence = B.SEQUENCE.as("s");
      Field<String> actor = B.ACTOR_ID.as("a");
      Table<?> candidates = sql.select(id, size, feed, sequence, actor).from(unpositionedIndex())
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.isNull()).and(SIZE.le(MAX_BLOCK_DATA))
          .and(leftOut).and(scope).orderBy(PUSH_ORDER).limit(Params.LIMIT).asTable("c");
      Field<Long> running = sum(candidates.field(size)).over(orderBy(candidates.field(feed), candidates.field(sequence),
          candidates.field(actor)).rowsUnboundedPreceding()).coerce(SQLDataType.BIGINT).as("running");
      Table<?> sums = sql.select(candidates.field(id), candidates.field(size), running).from(candidates).asTable("w");
      return Rendered.of(sql.select(SqlBlockLog.blockColumns(SqliteDialect.INSTANCE))
          .from(sums.join(B).on(B.BLOCK_PRIVATE_ID.eq(sums.field(id))))
          .where(sums.field(running).le(MAX_DATA).or(sums.field(running).eq(sums.field(size))))
          .orderBy(PUSH_ORDER), Params.SPACE, MAX_BLOCK_DATA, leftOut, scope, Params.LIMIT, MAX_DATA);
    }

    /** The blocks whose sequence is one of {@code count} values, in a feed. */
    Rendered bySequences(int count) {
      return bySequences.computeIfAbsent(count, n -> {
        List<Param<Long>> values = numbered("sequence", n);
        return Rendered.of(select().where(B.FEED_PRIVATE_ID.eq(Params.FEED)).and(B.SEQUENCE.in(values)),
            prepend(Params.FEED, values));
      });
    }

    /** The blocks at {@code count} positions of a space. */
    Rendered atPositions(int count) {
      return atPositions.computeIfAbsent(count, n -> {
        List<Param<Long>> values = numbered("position", n);
        return Rendered.of(select().where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.in(values)),
            prepend(Params.SPACE, values));
      });
    }

    /**
     * A feed's blocks without a position, through the index of exactly those (schema 15) in key
     * order. Left to itself, SQLite's planner reads {@code position IS NULL} as an equality on the
     * unique index of (feed, position), which holds every unpositioned block under one key, and
     * sorts them all: a local append then cost a sort of the feed's whole offline backlog.
     */
    private SelectJoinStep<Record> selectUnpositioned() {
      return sql.select(SqlBlockLog.blockColumns(SqliteDialect.INSTANCE)).from(unpositionedIndex());
    }

    /**
     * The blocks, as {@link #B}, read through the index of the unpositioned ones (see {@link
     * #selectUnpositioned}). A push's read of a space's or a scope's candidates walks it in key order
     * and stops at its limit, where the space's index would have found them all and sorted them for
     * every pushed batch; it reads other spaces' unpositioned blocks where their feeds sit between.
     */
    private static Table<?> unpositionedIndex() {
      return table("{0} as {1} indexed by {2}", BLOCKS, name(B.getName()), name("blocks_feed_unpositioned"));
    }

    private SelectJoinStep<Record> select() {
      return SqlBlockLog.selectBlocks(sql, SqliteDialect.INSTANCE);
    }

    /** The block with the key of {@link Params#FEED}, {@link Params#SEQUENCE} and {@link Params#ACTOR}. */
    private static Condition key() {
      return BLOCKS.FEED_PRIVATE_ID.eq(Params.FEED).and(BLOCKS.SEQUENCE.eq(Params.SEQUENCE))
          .and(BLOCKS.ACTOR_ID.eq(Params.ACTOR));
    }

    /** NULL, written into the statement. */
    private static <T> Field<T> none(Field<T> column) {
      return inline(null, column);
    }

    private static List<Param<Long>> numbered(String name, int count) {
      List<Param<Long>> params = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        params.add(Params.number(name + i));
      }
      return params;
    }

    private static Param<?>[] prepend(Param<?> first, List<Param<Long>> rest) {
      List<Param<?>> all = new ArrayList<>(rest.size() + 1);
      all.add(first);
      all.addAll(rest);
      return all.toArray(Param<?>[]::new);
    }
  }

  SqliteReplicaBlockLog(SqliteTransaction tx) {
    super(tx);
  }

  @Override
  public InsertOutcome insertLocal(SpaceId spaceId, Block block) {
    return insertAll(spaceId, List.of(block), null, QUERIES.insertLocal).get(0);
  }

  @Override
  public void markPublished(SpaceId spaceId, Collection<BlockKey> keys, boolean published) {
    for (BlockKey key : keys) {
      tx.findFeed(spaceId, key.feedId()).ifPresent(feed -> tx.sql().update(QUERIES.markPublished, published ? 1L : 0L,
          feed.privateId(), key.sequence().value(), key.actorId().value()));
    }
  }

  @Override
  public Set<BlockKey> unpublished(SpaceId spaceId, Collection<BlockKey> keys) {
    Set<BlockKey> result = new LinkedHashSet<>();
    for (BlockKey key : keys) {
      Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
      if (feed.isPresent() && tx.sql().longValue(QUERIES.unpublished, feed.get().privateId(), key.sequence().value(),
          key.actorId().value()) > 0) {
        result.add(key);
      }
    }
    return result;
  }

  /**
   * Per feed, one query for the sequences asked about (the key index leads with feed and
   * sequence): a range when they are dense, a list otherwise; rows of other keys are dropped here.
   */
  @Override
  public Map<BlockKey, Block> findAll(SpaceId spaceId, Collection<BlockKey> keys) {
    Map<FeedId, List<BlockKey>> byFeed = new LinkedHashMap<>();
    for (BlockKey key : keys) {
      byFeed.computeIfAbsent(key.feedId(), f -> new ArrayList<>()).add(key);
    }
    Map<BlockKey, Block> held = new HashMap<>();
    for (Map.Entry<FeedId, List<BlockKey>> entry : byFeed.entrySet()) {
      Optional<FeedRow> feed = tx.findFeed(spaceId, entry.getKey());
      if (feed.isEmpty()) {
        continue;
      }
      List<Long> sequences = entry.getValue().stream().map(key -> key.sequence().value()).distinct().toList();
      for (Block block : lookUp(spaceId, feed.get().privateId(), sequences, QUERIES.bySequenceRange,
          QUERIES::bySequences)) {
        held.put(block.key(), block);
      }
    }
    Map<BlockKey, Block> found = new LinkedHashMap<>();
    for (BlockKey key : keys) {
      Block block = held.get(key);
      if (block != null) {
        found.put(key, block);
      }
    }
    return found;
  }

  /** One query: a range of positions when they are dense, a list otherwise. */
  @Override
  public Map<Position, Block> atPositions(SpaceId spaceId, Collection<Position> positions) {
    Map<Position, Block> found = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty() || positions.isEmpty()) {
      return found;
    }
    List<Long> values = positions.stream().filter(Position::isAssigned).map(Position::value).distinct().toList();
    Set<Position> wanted = new HashSet<>(positions);
    for (Block block : lookUp(spaceId, space.get(), values, QUERIES.positionRange, QUERIES::atPositions)) {
      if (wanted.contains(block.position())) {
        found.put(block.position(), block);
      }
    }
    return found;
  }

  /**
   * The blocks of {@code owner} (a feed, or a space) at {@code values} (sequences, or positions): one
   * range when they are dense, lists of at most {@value #LOOKUP_CHUNK} otherwise. The range may hold
   * blocks at other values; the caller drops them.
   */
  private List<Block> lookUp(SpaceId spaceId, long owner, List<Long> values, Rendered range,
      IntFunction<Rendered> list) {
    if (values.isEmpty()) {
      return List.of();
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long value : values) {
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
    if (max - min < DENSE * (long) values.size()) {
      return list(spaceId, range, owner, min, max);
    }
    List<Block> blocks = new ArrayList<>();
    for (int from = 0; from < values.size(); from += LOOKUP_CHUNK) {
      List<Long> chunk = values.subList(from, Math.min(values.size(), from + LOOKUP_CHUNK));
      List<Object> parameters = new ArrayList<>(chunk.size() + 1);
      parameters.add(owner);
      parameters.addAll(chunk);
      blocks.addAll(list(spaceId, list.apply(chunk.size()), parameters.toArray()));
    }
    return blocks;
  }

  /** Positioned blocks by position, then unpositioned ones by sequence and actor: two index scans. */
  @Override
  public List<Block> feed(SpaceId spaceId, FeedId feedId) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return List.of();
    }
    List<Block> blocks = new ArrayList<>(list(spaceId, QUERIES.feedPositioned, feed.get().privateId()));
    blocks.addAll(list(spaceId, QUERIES.feedUnpositioned, feed.get().privateId()));
    return blocks;
  }

  @Override
  public Optional<Block> lastInFeed(SpaceId spaceId, FeedId feedId) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return Optional.empty();
    }
    Optional<Block> unpositioned = one(spaceId, QUERIES.lastUnpositioned, feed.get().privateId());
    return unpositioned.isPresent() ? unpositioned : one(spaceId, QUERIES.lastPositioned, feed.get().privateId());
  }

  @Override
  public Optional<Sequence> maxSequence(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId)
        .flatMap(feed -> Optional.ofNullable(tx.sql().longValue(QUERIES.maxSequence, feed.privateId())))
        .map(Sequence::new);
  }

  /** Copies the row into {@code set_aside_blocks} as it is, then deletes it: its columns are never decoded. */
  @Override
  public boolean setAside(SpaceId spaceId, BlockKey key) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
    if (feed.isEmpty()) {
      return false;
    }
    Object[] row = {feed.get().privateId(), key.sequence().value(), key.actorId().value()};
    if (tx.sql().update(QUERIES.setAside, row) == 0) {
      return false;
    }
    tx.sql().update(QUERIES.delete, row);
    tx.countBlocks(feed.get().privateId(), -1);
    return true;
  }

  @Override
  public Optional<Position> chainedAtOrBelow(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    return tx.findSpace(spaceId)
        .flatMap(space -> Optional.ofNullable(tx.sql().longValue(QUERIES.chainedAtOrBelow, space, position.value())))
        .map(Position::of);
  }

  @Override
  public int forgetChains(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> tx.sql().update(QUERIES.forgetChains, space)).orElse(0);
  }

  @Override
  public Optional<Block> lastBefore(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).flatMap(space -> one(spaceId, QUERIES.lastBefore, space, position.value()));
  }

  @Override
  public List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit) {
    return inScope(spaceId, scope, QUERIES.unpositioned, List.of(), List.of(limit));
  }

  @Override
  public List<Block> unpositioned(SpaceId spaceId, Scope scope, Set<FeedId> leftOut, int limit, int maxBlockData,
      long maxData) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    List<Object> before = new ArrayList<>();
    before.add(maxBlockData);
    before.addAll(Queries.leftOut(space.get(), leftOut));
    return inScope(spaceId, scope, QUERIES.unpositionedWithin(leftOut.size()), before, List.of(limit, maxData));
  }

  @Override
  public Map<BlockKey, Integer> unpositionedLarger(SpaceId spaceId, Scope scope, int maxBlockData, int limit) {
    Map<BlockKey, Integer> result = new LinkedHashMap<>();
    inScope(spaceId, scope, QUERIES.unpositionedLarger, List.of(maxBlockData), List.of(limit),
        rs -> result.put(new BlockKey(tx.feedById(rs.getLong(1)).feedId(), new ActorId(rs.getString(2)),
            new Sequence(rs.getLong(3))), rs.getInt(4)));
    return result;
  }

  @Override
  public long countUnpositioned(SpaceId spaceId, Scope scope) {
    List<Long> count = inScope(spaceId, scope, QUERIES.countUnpositioned, List.of(), List.of(), rs -> rs.getLong(1));
    return count.isEmpty() ? 0 : count.get(0);
  }

  /**
   * The block of the current row of a result set that reads {@link SqlBlockLog#blockColumns}, once
   * its values match the stored checksum ({@link dev.feedstore.core.store.CorruptBlockException}
   * otherwise): for the other views of a replica's blocks.
   */
  Block block(SpaceId spaceId, java.sql.ResultSet rs) throws java.sql.SQLException {
    return toBlock(spaceId, rs);
  }

  @Override
  public boolean setPosition(SpaceId spaceId, BlockKey key, Position position, java.util.OptionalLong receivedAt) {
    if (receivedAt.isPresent() && !position.isAssigned()) {
      throw new IllegalArgumentException("block " + key + " cannot have a receive time without a position");
    }
    Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
    if (feed.isEmpty()) {
      return false;
    }
    try {
      return tx.sql().update(QUERIES.setPosition, position.isAssigned() ? position.value() : null,
          receivedAt.isPresent() ? receivedAt.getAsLong() : null, feed.get().privateId(), key.sequence().value(),
          key.actorId().value()) == 1;
    } catch (SqlFailure e) {
      if (!SqlErrors.isConstraintViolation(e.sqlException())) {
        throw e;
      }
      Block holder = atPosition(spaceId, position).orElse(null);
      throw new UniquenessViolationException(SqlErrors.constraintOf(String.valueOf(e.sqlException().getMessage())),
          "position " + position + " in space " + spaceId + " is held by "
              + (holder == null ? "another block" : "block " + holder.key())
              + "; cannot give it to block " + key, e);
    }
  }

  @Override
  public int clearPositions(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> tx.sql().update(QUERIES.clearPositions, space)).orElse(0);
  }

  @Override
  public int clearPositionsAbove(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).map(space -> tx.sql().update(QUERIES.clearPositionsAbove, space, position.value()))
        .orElse(0);
  }

  @Override
  public void rekey(SpaceId spaceId, BlockKey key, Sequence newSequence) {
    FeedRow feed = tx.requireFeed(spaceId, key.feedId());
    Block block = find(spaceId, feed, key).orElseThrow(() ->
        new IllegalStateException("cannot re-key block " + key + ": it is not stored"));
    if (block.isPositioned()) {
      throw new IllegalStateException("cannot re-key block " + key + ": it is positioned at "
          + block.position() + ", and positioned blocks are immutable");
    }
    try {
      tx.sql().update(QUERIES.rekey, newSequence.value(), checksum(block, newSequence, block.predecessor()),
          feed.privateId(), key.sequence().value(), key.actorId().value());
    } catch (SqlFailure e) {
      throw new UniquenessViolationException("(feed, sequence, actor)", "cannot re-key block " + key
          + " to sequence " + newSequence + ": that key is taken", e);
    }
    relinkUnpublished(spaceId, feed, key, newSequence);
  }

  @Override
  public void mergeInto(SpaceId spaceId, BlockKey from, BlockKey to) {
    FeedRow feed = tx.requireFeed(spaceId, from.feedId());
    Block source = find(spaceId, feed, from).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + ": it is not stored"));
    Block target = find(spaceId, to).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + " into " + to + ": " + to + " is not stored"));
    if (source.isPositioned() || !to.feedId().equals(from.feedId()) || !to.actorId().equals(from.actorId())
        || !source.withSequence(to.sequence()).sameContentAs(target)) {
      throw new IllegalStateException("cannot merge block " + from + " into " + to
          + ": only an unpositioned block with the same content may merge");
    }
    relinkUnpublished(spaceId, feed, from, to.sequence());
    tx.sql().update(QUERIES.delete, feed.privateId(), from.sequence().value(), from.actorId().value());
    tx.countBlocks(feed.privateId(), -1);
  }

  /**
   * Points the unpublished, unpositioned blocks that followed {@code key} at its new sequence, each
   * with the checksum of its new content (there are few: only this replica has seen them).
   */
  private void relinkUnpublished(SpaceId spaceId, FeedRow feed, BlockKey key, Sequence newSequence) {
    List<Block> followers = list(spaceId, QUERIES.followers, feed.privateId(), key.actorId().value(),
        key.sequence().value());
    Optional<Predecessor> moved = Optional.of(new Predecessor(key.actorId(), newSequence));
    for (Block follower : followers) {
      tx.sql().update(QUERIES.relink, newSequence.value(), checksum(follower, follower.sequence(), moved),
          feed.privateId(), follower.sequence().value(), follower.actorId().value());
    }
  }

  /**
   * The checksum of {@code block} under another sequence or predecessor, from the values (the block
   * with them may not be a valid {@link Block} until its key is checked to be free).
   */
  private static int checksum(Block block, Sequence sequence, Optional<Predecessor> predecessor) {
    return BlockChecksum.of(block.feedId().value(), block.actorId().value(), sequence.value(),
        predecessor.map(p -> p.actorId().value()).orElse(null), predecessor.map(p -> p.sequence().value()).orElse(0L),
        block.timestamp(), block.data().toByteArray());
  }
}
