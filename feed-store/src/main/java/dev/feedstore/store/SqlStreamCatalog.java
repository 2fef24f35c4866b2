package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SPACES;
import static dev.feedstore.store.schema.Tables.STREAMS;
import static dev.feedstore.store.schema.Tables.STREAM_PRODUCERS;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ProducerMark;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.store.StreamRecordColumns;
import dev.feedstore.core.store.StreamRecordRow;
import dev.feedstore.core.store.UniquenessViolationException;
import dev.feedstore.store.StoreDialect.LockKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.TableField;
import org.jooq.impl.DSL;

/**
 * {@link StreamCatalog} in the {@code streams} and {@code stream_producers} tables, read on every use
 * (every stream request reads a record, and several processes may write one). Spaces are named by
 * id, like subscriptions, so a stream stores no space row before its first block does.
 *
 * <p>Where several processes write one stream's record, a write transaction serializes on the stream
 * before it reads it ({@link StoreDialect#lock}): {@link #find} and {@link #get} lock the stream's
 * space and name (a name not created yet is locked too). A transaction locks a fork before its source
 * (it finds the fork, then gets or finds the source), never the other way, so two of them cannot
 * wait for each other. Every statement after the lock sees what the previous holder committed: a
 * producer's sequence, a closure, a generation or the forks still reading a source is checked
 * against the latest one. {@link #countNotGone} locks the space likewise, so that the count a new
 * stream is checked on holds until it is stored. Read-only transactions take no lock and read their
 * snapshot; a database that runs one write at a time needs no lock at all.
 */
final class SqlStreamCatalog implements StreamCatalog {
  /** The columns of a record, in the order of {@link StreamRecordRow}. */
  private static final List<TableField<?, ?>> COLUMNS = List.of(STREAMS.STREAM_PRIVATE_ID, STREAMS.SPACE_ID,
      STREAMS.NAME, STREAMS.GENERATION, STREAMS.FEED_ID, STREAMS.CONTENT_TYPE, STREAMS.CREATED_AT,
      STREAMS.TTL_SECONDS, STREAMS.EXPIRES_AT, STREAMS.TOUCHED_AT, STREAMS.FORK_OF, STREAMS.BASE_POSITION,
      STREAMS.FORK_SUB_OFFSET, STREAMS.CLOSED_POSITION, STREAMS.CLOSED_BY_PRODUCER, STREAMS.CLOSED_BY_EPOCH,
      STREAMS.CLOSED_BY_SEQ, STREAMS.STREAM_SEQ, STREAMS.STATE);
  /** The columns {@link StreamCatalog#update} writes, in the order of {@link StreamRecordRow#changes}. */
  private static final List<TableField<?, ?>> CHANGES = List.of(STREAMS.TOUCHED_AT, STREAMS.CLOSED_POSITION,
      STREAMS.CLOSED_BY_PRODUCER, STREAMS.CLOSED_BY_EPOCH, STREAMS.CLOSED_BY_SEQ, STREAMS.STREAM_SEQ, STREAMS.STATE);
  private static final Condition NOT_GONE = STREAMS.STATE.ne(inline("gone"));
  /** Lookups by a list of feed ids bind at most this many at once. */
  private static final int LOOKUP_CHUNK = 500;

  /** The statements of the catalog, rendered once per dialect. */
  static final class Queries {
    private static final Param<Long> EPOCH = Params.number("epoch");
    private static final Param<Long> LAST_SEQ = Params.number("last_seq");

    final Rendered find;
    final Rendered get;
    final Rendered nextGeneration;
    final Rendered insert;
    final Rendered update;
    final Rendered forks;
    final Rendered count;
    final Rendered producer;
    final Rendered putProducer;
    final Rendered maxSequence;
    final Rendered lastPosition;
    final Rendered removedUpTo;
    private final DSLContext sql;
    private final StoreDialect dialect;
    private final Map<Integer, Rendered> ofFeeds = new ConcurrentHashMap<>();

    Queries(DSLContext sql, StoreDialect dialect) {
      this.sql = sql;
      this.dialect = dialect;
      find = Rendered.of(sql.select(COLUMNS).from(STREAMS).where(STREAMS.SPACE_ID.eq(Params.SPACE_ID))
          .and(STREAMS.NAME.eq(Params.NAME)).and(NOT_GONE), Params.SPACE_ID, Params.NAME);
      get = Rendered.of(sql.select(COLUMNS).from(STREAMS).where(STREAMS.STREAM_PRIVATE_ID.eq(Params.ID)), Params.ID);
      nextGeneration = Rendered.of(sql.select(max(STREAMS.GENERATION)).from(STREAMS)
          .where(STREAMS.SPACE_ID.eq(Params.SPACE_ID)).and(STREAMS.NAME.eq(Params.NAME)), Params.SPACE_ID, Params.NAME);
      List<TableField<?, ?>> stored = COLUMNS.subList(1, COLUMNS.size());
      Param<?>[] values = parametersOf(stored);
      insert = Rendered.of(sql.insertInto(STREAMS).columns(stored).values(values)
          .returningResult(STREAMS.STREAM_PRIVATE_ID), values);
      Param<?>[] changes = parametersOf(CHANGES);
      Map<Field<?>, Field<?>> set = new LinkedHashMap<>();
      for (int i = 0; i < CHANGES.size(); i++) {
        set.put(CHANGES.get(i), changes[i]);
      }
      update = Rendered.of(sql.update(STREAMS).set(set).where(STREAMS.STREAM_PRIVATE_ID.eq(Params.ID)), append(changes, Params.ID));
      forks = Rendered.of(sql.select(DSL.count()).from(STREAMS).where(STREAMS.FORK_OF.eq(Params.ID)).and(NOT_GONE),
          Params.ID);
      count = Rendered.of(sql.select(DSL.count()).from(STREAMS).where(STREAMS.SPACE_ID.eq(Params.SPACE_ID)).and(NOT_GONE),
          Params.SPACE_ID);
      producer = Rendered.of(sql.select(STREAM_PRODUCERS.EPOCH, STREAM_PRODUCERS.LAST_SEQ).from(STREAM_PRODUCERS)
          .where(STREAM_PRODUCERS.STREAM_PRIVATE_ID.eq(Params.ID)).and(STREAM_PRODUCERS.PRODUCER_ID.eq(Params.NAME)),
          Params.ID, Params.NAME);
      putProducer = Rendered.of(sql.insertInto(STREAM_PRODUCERS, STREAM_PRODUCERS.STREAM_PRIVATE_ID,
          STREAM_PRODUCERS.PRODUCER_ID, STREAM_PRODUCERS.EPOCH, STREAM_PRODUCERS.LAST_SEQ)
          .values(Params.ID, Params.NAME, EPOCH, LAST_SEQ)
          .onConflict(STREAM_PRODUCERS.STREAM_PRIVATE_ID, STREAM_PRODUCERS.PRODUCER_ID).doUpdate()
          .set(STREAM_PRODUCERS.EPOCH, excluded(STREAM_PRODUCERS.EPOCH))
          .set(STREAM_PRODUCERS.LAST_SEQ, excluded(STREAM_PRODUCERS.LAST_SEQ)),
          Params.ID, Params.NAME, EPOCH, LAST_SEQ);
      // The higher of the feed's stored and removed sequences (-1 for neither; no row for no feed).
      Field<Long> held = DSL.field(DSL.select(max(BLOCKS.SEQUENCE)).from(BLOCKS)
          .where(BLOCKS.FEED_PRIVATE_ID.eq(FEEDS.FEED_PRIVATE_ID)));
      maxSequence = Rendered.of(sql.select(greatest(coalesce(held, inline(-1L)),
          coalesce(FEEDS.REMOVED_MAX_SEQUENCE, inline(-1L)))).from(FEEDS).join(SPACES)
          .on(SPACES.SPACE_PRIVATE_ID.eq(FEEDS.SPACE_PRIVATE_ID)).where(SPACES.SPACE_ID.eq(Params.SPACE_ID))
          .and(FEEDS.FEED_ID.eq(Params.FEED_ID)), Params.SPACE_ID, Params.FEED_ID);
      lastPosition = feedMax(sql, BLOCKS.POSITION);
      removedUpTo = Rendered.of(sql.select(FEEDS.REMOVED_UP_TO).from(FEEDS).join(SPACES)
          .on(SPACES.SPACE_PRIVATE_ID.eq(FEEDS.SPACE_PRIVATE_ID)).where(SPACES.SPACE_ID.eq(Params.SPACE_ID))
          .and(FEEDS.FEED_ID.eq(Params.FEED_ID)), Params.SPACE_ID, Params.FEED_ID);
    }

    /** The records of {@code count} feeds of a space, whatever their state (one text for every count of a shape). */
    Rendered ofFeeds(int count) {
      return ofFeeds.computeIfAbsent(dialect.anyOfShape(count), shape -> {
        Condition feeds = dialect.anyOf(STREAMS.FEED_ID, "feed_ids", count);
        return Rendered.of(sql.select(COLUMNS).from(STREAMS).where(STREAMS.SPACE_ID.eq(Params.SPACE_ID)).and(feeds),
            Params.SPACE_ID, feeds);
      });
    }

    /**
     * The highest {@code column} of the feed's blocks, read from the database in one statement (not
     * from the rows kept in memory, which may know a feed a concurrent write created after this
     * transaction's snapshot).
     */
    private static Rendered feedMax(DSLContext sql, Field<Long> column) {
      return Rendered.of(sql.select(max(column)).from(BLOCKS.join(FEEDS).on(FEEDS.FEED_PRIVATE_ID.eq(BLOCKS.FEED_PRIVATE_ID))
          .join(SPACES).on(SPACES.SPACE_PRIVATE_ID.eq(FEEDS.SPACE_PRIVATE_ID)))
          .where(SPACES.SPACE_ID.eq(Params.SPACE_ID)).and(FEEDS.FEED_ID.eq(Params.FEED_ID)),
          Params.SPACE_ID, Params.FEED_ID);
    }

    /** A parameter for each column, named after it. */
    private static Param<?>[] parametersOf(List<TableField<?, ?>> columns) {
      return columns.stream().map(column -> DSL.param(column.getName(), column.getDataType())).toArray(Param<?>[]::new);
    }

    private static Param<?>[] append(Param<?>[] params, Param<?> last) {
      Param<?>[] all = Arrays.copyOf(params, params.length + 1);
      all[params.length] = last;
      return all;
    }
  }

  private final SqlTransaction tx;
  private final Queries queries;

  SqlStreamCatalog(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().streams;
  }

  @Override
  public Optional<StreamRecord> find(SpaceId spaceId, String name) {
    if (tx.writable()) {
      lock(spaceId, name);
    }
    return record(queries.find, spaceId.value(), name);
  }

  @Override
  public Optional<StreamRecord> get(long id) {
    Optional<StreamRecord> record = record(queries.get, id);
    if (record.isEmpty() || !tx.writable()) {
      return record;
    }
    // Locked as find locks it, then read again: the first read may predate the holder's commit.
    return lock(record.get().spaceId(), record.get().name()) ? record(queries.get, id) : record;
  }

  /** Waits for, then holds until this transaction ends, the lock of the stream of this name. */
  private boolean lock(SpaceId spaceId, String name) {
    return tx.dialect().lock(tx.sql(), LockKind.STREAM, spaceId.value() + "/" + name);
  }

  /** Takes no lock: a write that must see a close another process committed holds the space's counter first. */
  @Override
  public List<StreamRecord> ofFeeds(SpaceId spaceId, Set<FeedId> feedIds) {
    List<String> ids = feedIds.stream().map(FeedId::value).sorted().toList();
    List<StreamRecord> records = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += LOOKUP_CHUNK) {
      List<String> chunk = ids.subList(from, Math.min(ids.size(), from + LOOKUP_CHUNK));
      List<Object> parameters = new ArrayList<>(chunk.size() + 1);
      parameters.add(spaceId.value());
      parameters.addAll(tx.dialect().anyOfValues(chunk));
      records.addAll(tx.sql().list(queries.ofFeeds(chunk.size()), rs -> StreamRecordColumns.read(rs::getObject),
          parameters.toArray()));
    }
    return records;
  }

  @Override
  public long nextGeneration(SpaceId spaceId, String name) {
    Long last = tx.sql().longValue(queries.nextGeneration, spaceId.value(), name);
    return last == null ? 0 : last + 1;
  }

  @Override
  public long insert(StreamRecord r) {
    try {
      return tx.sql().longValue(queries.insert, StreamRecordRow.withoutId(r));
    } catch (SqlFailure e) {
      if (tx.dialect().isUniqueViolation(e.sqlException())) {
        throw new UniquenessViolationException("(space, name) of a stream that is not gone",
            "space '" + r.spaceId().value() + "' already holds a stream named '" + r.name() + "' that is not gone", e);
      }
      throw e;
    }
  }

  @Override
  public void update(StreamRecord r) {
    tx.sql().update(queries.update, StreamRecordRow.changes(r));
  }

  @Override
  public long forksNotGone(long id) {
    return count(queries.forks, id);
  }

  @Override
  public long countNotGone(SpaceId spaceId) {
    if (tx.writable()) {
      tx.dialect().lock(tx.sql(), LockKind.STREAMS_OF_SPACE, spaceId.value());
    }
    return count(queries.count, spaceId.value());
  }

  @Override
  public Optional<ProducerMark> producer(long streamId, String producerId) {
    Rendered statement = queries.producer;
    return tx.sql().one(statement, rs -> new ProducerMark(producerId, statement.getLong(rs, STREAM_PRODUCERS.EPOCH),
        statement.getLong(rs, STREAM_PRODUCERS.LAST_SEQ)), streamId, producerId);
  }

  @Override
  public void putProducer(long streamId, ProducerMark mark) {
    tx.sql().update(queries.putProducer, streamId, mark.producerId(), mark.epoch(), mark.seq());
  }

  /** Read from the store, not from the rows kept in memory (see {@link #lastPosition}). */
  @Override
  public OptionalLong maxSequence(SpaceId spaceId, FeedId feedId) {
    Long max = tx.sql().longValue(queries.maxSequence, spaceId.value(), feedId.value());
    return max == null || max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }

  @Override
  public OptionalLong lastPosition(SpaceId spaceId, FeedId feedId) {
    return optional(tx.sql().longValue(queries.lastPosition, spaceId.value(), feedId.value()));
  }

  @Override
  public long removedUpTo(SpaceId spaceId, FeedId feedId) {
    Long removed = tx.sql().longValue(queries.removedUpTo, spaceId.value(), feedId.value());
    return removed == null ? 0 : removed;
  }

  private Optional<StreamRecord> record(Rendered statement, Object... parameters) {
    return tx.sql().one(statement, rs -> StreamRecordColumns.read(rs::getObject), parameters);
  }

  private long count(Rendered statement, Object parameter) {
    Long count = tx.sql().longValue(statement, parameter);
    return count == null ? 0 : count;
  }

  private static OptionalLong optional(Long value) {
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }
}
