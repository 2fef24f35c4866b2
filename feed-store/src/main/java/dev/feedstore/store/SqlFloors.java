package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SPACES;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.orderBy;
import static org.jooq.impl.DSL.sum;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedLoss;
import dev.feedstore.core.store.Retention;
import dev.feedstore.core.store.SpaceFloor;
import dev.feedstore.store.schema.tables.Blocks;
import dev.feedstore.store.schema.tables.Feeds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.SelectConditionStep;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/**
 * The floor of each space ({@link SpaceFloor}) in the space's row, the compaction that raises it,
 * and the space's own {@link Retention} with what it lets go of. Not thread-safe (as its transaction).
 */
final class SqlFloors {
  /** The statements of the floors, rendered once per dialect. */
  static final class Queries {
    private static final Blocks B = BLOCKS.as("b");
    private static final Feeds F = FEEDS.as("f");
    private static final Param<String> FLOOR_FEED = Params.text("floor_feed");
    private static final Param<Long> BLOCKS_KEPT = Params.number("retain_blocks");
    private static final Param<Long> AGE_KEPT = Params.number("retain_age_ms");
    private static final Param<Long> BYTES_KEPT = Params.number("retain_bytes");
    private static final Param<Long> BYTES = Params.number("bytes");

    final Rendered floor;
    final Rendered floorHeld;
    final Rendered lowest;
    final Rendered remove;
    final Rendered raise;
    final Rendered lost;
    final Rendered retention;
    final Rendered setRetention;
    final Rendered lastBeforeTime;
    final Rendered beyondBytes;

    Queries(DSLContext sql, StoreDialect dialect) {
      floor = Rendered.of(selectFloor(sql), Params.SPACE);
      // Holding the space's row until the transaction ends: compactions of one space, and appends to
      // it (which take the row for the counter), wait for each other, in whatever process.
      floorHeld = Rendered.of(dialect.holding(selectFloor(sql)), Params.SPACE);
      // The lowest blocks above the floor, up to a position: served by the index on (space, position).
      lowest = Rendered.of(sql.select(B.POSITION, B.FEED_PRIVATE_ID, F.FEED_ID, B.ACTOR_ID, B.SEQUENCE, B.CHAIN)
          .from(B.join(F).on(F.FEED_PRIVATE_ID.eq(B.FEED_PRIVATE_ID))).where(B.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(B.POSITION.gt(Params.CURSOR)).and(B.POSITION.le(Params.POSITION)).orderBy(B.POSITION)
          .limit(Params.LIMIT), Params.SPACE, Params.CURSOR, Params.POSITION, Params.LIMIT);
      remove = Rendered.of(sql.deleteFrom(BLOCKS).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.POSITION.gt(Params.CURSOR)).and(BLOCKS.POSITION.le(Params.POSITION)),
          Params.SPACE, Params.CURSOR, Params.POSITION);
      raise = Rendered.of(sql.update(SPACES).set(SPACES.FLOOR_POSITION, Params.POSITION)
          .set(SPACES.FLOOR_FEED_ID, FLOOR_FEED).set(SPACES.FLOOR_ACTOR_ID, Params.ACTOR)
          .set(SPACES.FLOOR_SEQUENCE, Params.SEQUENCE).set(SPACES.FLOOR_CHAIN, Params.CHAIN)
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)),
          Params.POSITION, FLOOR_FEED, Params.ACTOR, Params.SEQUENCE, Params.CHAIN, Params.SPACE);
      // The highest position and sequence each feed lost (FeedLoss): both only ever rise.
      lost = Rendered.of(sql.update(FEEDS).set(FEEDS.REMOVED_UP_TO, greatest(FEEDS.REMOVED_UP_TO, Params.POSITION))
          .set(FEEDS.REMOVED_MAX_SEQUENCE, greatest(coalesce(FEEDS.REMOVED_MAX_SEQUENCE, inline(-1L)), Params.SEQUENCE))
          .where(FEEDS.FEED_PRIVATE_ID.eq(Params.FEED)), Params.POSITION, Params.SEQUENCE, Params.FEED);
      retention = Rendered.of(sql.select(SPACES.RETAIN_BLOCKS, SPACES.RETAIN_AGE_MS, SPACES.RETAIN_BYTES).from(SPACES)
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)), Params.SPACE);
      setRetention = Rendered.of(sql.update(SPACES).set(SPACES.RETAIN_BLOCKS, BLOCKS_KEPT)
          .set(SPACES.RETAIN_AGE_MS, AGE_KEPT).set(SPACES.RETAIN_BYTES, BYTES_KEPT)
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)), BLOCKS_KEPT, AGE_KEPT, BYTES_KEPT, Params.SPACE);
      // The last block received before a time: one step down the index on (space, receive time, position).
      lastBeforeTime = Rendered.of(sql.select(BLOCKS.POSITION).from(BLOCKS).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.RECEIVED_AT.lt(Params.NOW)).and(BLOCKS.POSITION.isNotNull())
          .orderBy(BLOCKS.RECEIVED_AT.desc(), BLOCKS.POSITION.desc()).limit(inline(1)), Params.SPACE, Params.NOW);
      // The highest block at which the data of it and every block above it is more than a size. jOOQ
      // 3.19 has no length of binary data; both dialects call it length (SQLite reads it from the
      // record header, without the data).
      Field<Long> kept = sum(function("length", SQLDataType.INTEGER, BLOCKS.DATA))
          .over(orderBy(BLOCKS.POSITION.desc())).coerce(SQLDataType.BIGINT).as("kept");
      Table<?> running = sql.select(BLOCKS.POSITION, kept).from(BLOCKS).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.POSITION.isNotNull()).asTable("k");
      beyondBytes = Rendered.of(sql.select(max(running.field(BLOCKS.POSITION))).from(running)
          .where(running.field(kept).gt(BYTES)), Params.SPACE, BYTES);
    }
  }

  private static SelectConditionStep<?> selectFloor(DSLContext sql) {
    return sql.select(SPACES.FLOOR_POSITION, SPACES.FLOOR_FEED_ID, SPACES.FLOOR_ACTOR_ID, SPACES.FLOOR_SEQUENCE,
        SPACES.FLOOR_CHAIN).from(SPACES).where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE));
  }

  private final SqlTransaction tx;
  private final Queries queries;

  SqlFloors(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().floors;
  }

  SpaceFloor floor(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> floor(space, queries.floor)).orElse(SpaceFloor.NONE);
  }

  private SpaceFloor floor(long space, Rendered statement) {
    return tx.sql().one(statement, rs -> SpaceFloor.of(statement.getLong(rs, SPACES.FLOOR_POSITION),
        statement.getString(rs, SPACES.FLOOR_FEED_ID), statement.getString(rs, SPACES.FLOOR_ACTOR_ID),
        statement.getNullableLong(rs, SPACES.FLOOR_SEQUENCE), statement.getNullableLong(rs, SPACES.FLOOR_CHAIN)),
        space).orElse(SpaceFloor.NONE);
  }

  int compact(SpaceId spaceId, Position upTo, int maxBlocks) {
    if (maxBlocks <= 0) {
      throw new IllegalArgumentException("maxBlocks must be > 0, was " + maxBlocks);
    }
    if (!tx.writable()) {
      throw new IllegalStateException("space " + spaceId + " is compacted in a write transaction, not in a read");
    }
    Optional<Long> found = tx.findSpace(spaceId);
    if (found.isEmpty()) {
      return 0;
    }
    long space = found.get();
    long floor = floor(space, queries.floorHeld).position().value();
    Rendered lowest = queries.lowest;
    List<Removed> removed = tx.sql().list(lowest, rs -> new Removed(lowest.getLong(rs, Queries.B.POSITION),
        lowest.getLong(rs, Queries.B.FEED_PRIVATE_ID), lowest.getString(rs, Queries.F.FEED_ID),
        lowest.getString(rs, Queries.B.ACTOR_ID), lowest.getLong(rs, Queries.B.SEQUENCE),
        lowest.getNullableLong(rs, Queries.B.CHAIN)), space, floor, upTo.value(), maxBlocks);
    if (removed.isEmpty()) {
      return 0;
    }
    Removed last = removed.get(removed.size() - 1);
    tx.sql().update(queries.remove, space, floor, last.position());
    Map<Long, Long> perFeed = new HashMap<>();
    Map<Long, FeedLoss> lostPerFeed = new TreeMap<>();
    for (Removed block : removed) {
      perFeed.merge(block.feedPrivateId(), -1L, Long::sum);
      lostPerFeed.merge(block.feedPrivateId(), new FeedLoss(block.position(), block.sequence()), FeedLoss::and);
    }
    perFeed.forEach(tx::countBlocks);
    tx.sql().batch(queries.lost, lostPerFeed.entrySet().stream()
        .map(feed -> new Object[] {feed.getValue().upTo(), feed.getValue().maxSequence(), feed.getKey()}).toList());
    tx.sql().update(queries.raise, last.position(), last.feedId(), last.actorId(), last.sequence(), last.chain(),
        space);
    return removed.size();
  }

  private record Removed(long position, long feedPrivateId, String feedId, String actorId, long sequence, Long chain) {}

  Optional<Retention> retention(SpaceId spaceId) {
    Rendered statement = queries.retention;
    return tx.findSpace(spaceId).flatMap(space -> tx.sql().one(statement, rs -> {
      Long blocks = statement.getNullableLong(rs, SPACES.RETAIN_BLOCKS);
      Long age = statement.getNullableLong(rs, SPACES.RETAIN_AGE_MS);
      Long bytes = statement.getNullableLong(rs, SPACES.RETAIN_BYTES);
      return blocks == null && age == null && bytes == null ? Optional.<Retention>empty()
          : Optional.of(Retention.of(zeroIfNull(blocks), zeroIfNull(age), zeroIfNull(bytes)));
    }, space)).flatMap(found -> found);
  }

  void setRetention(SpaceId spaceId, Optional<Retention> retention) {
    if (!tx.writable()) {
      throw new IllegalStateException("the retention of space " + spaceId + " is set in a write transaction");
    }
    long space = tx.space(spaceId);
    tx.sql().update(queries.setRetention, retention.map(r -> r.blocks().orElse(0)).orElse(null),
        retention.map(r -> r.ageMillis().orElse(0)).orElse(null), retention.map(r -> r.bytes().orElse(0)).orElse(null),
        space);
  }

  Position lastReceivedBefore(SpaceId spaceId, long receivedAtMillis) {
    Long last = tx.findSpace(spaceId)
        .map(space -> tx.sql().longValue(queries.lastBeforeTime, space, receivedAtMillis)).orElse(null);
    return SqlFeedCatalog.positionOf(last);
  }

  Position lastBeyondBytes(SpaceId spaceId, long bytes) {
    Long beyond = tx.findSpace(spaceId).map(space -> tx.sql().longValue(queries.beyondBytes, space, bytes))
        .orElse(null);
    return SqlFeedCatalog.positionOf(beyond);
  }

  private static long zeroIfNull(Long value) {
    return value == null ? 0 : value;
  }
}
