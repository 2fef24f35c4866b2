package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.FEEDS;
import static dev.feedstore.store.schema.Tables.SPACES;
import static org.jooq.impl.DSL.coalesce;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.select;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.core.store.BlockLog;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.core.store.Retention;
import dev.feedstore.core.store.SpaceFloor;
import dev.feedstore.core.store.UniquenessViolationException;
import dev.feedstore.store.schema.tables.Blocks;
import dev.feedstore.store.schema.tables.Feeds;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SelectJoinStep;

/**
 * The blocks of a store over the {@code blocks} table: the authority's {@link BlockLog} of every
 * store (a replica's extends it with its own moves). The statements of the hot paths (an append's
 * claim, receive time, chain and batch insert; the pages after a cursor; lookups by key and position)
 * are rendered once per dialect and run on the transaction's cached prepared statements; rows become
 * blocks straight from the result set, each checked against its stored checksum.
 *
 * <p>Not thread-safe (as its transaction).
 */
public class SqlBlockLog implements BlockLog {
  /** The blocks table as every block read names it. */
  public static final Blocks B = BLOCKS.as("b");
  private static final Feeds F = FEEDS.as("f");
  private static final Param<String> SENDER = Params.text("sender");
  private static final byte[] NO_BYTES = new byte[0];

  /** The columns a block is read from, in their order; the feed's id follows where the dialect joins it. */
  private static final List<Field<?>> BLOCK_COLUMNS = List.of(B.FEED_PRIVATE_ID, B.POSITION, B.SEQUENCE, B.ACTOR_ID,
      B.PREV_SEQUENCE, B.PREV_ACTOR_ID, B.TIMESTAMP, B.DATA, B.CHECKSUM, B.RECEIVED_AT);
  private static final int FEED_PRIVATE_ID = BLOCK_COLUMNS.indexOf(B.FEED_PRIVATE_ID) + 1;
  private static final int POSITION = BLOCK_COLUMNS.indexOf(B.POSITION) + 1;
  private static final int SEQUENCE = BLOCK_COLUMNS.indexOf(B.SEQUENCE) + 1;
  private static final int ACTOR_ID = BLOCK_COLUMNS.indexOf(B.ACTOR_ID) + 1;
  private static final int PREV_SEQUENCE = BLOCK_COLUMNS.indexOf(B.PREV_SEQUENCE) + 1;
  private static final int PREV_ACTOR_ID = BLOCK_COLUMNS.indexOf(B.PREV_ACTOR_ID) + 1;
  private static final int TIMESTAMP = BLOCK_COLUMNS.indexOf(B.TIMESTAMP) + 1;
  private static final int DATA = BLOCK_COLUMNS.indexOf(B.DATA) + 1;
  private static final int CHECKSUM = BLOCK_COLUMNS.indexOf(B.CHECKSUM) + 1;
  private static final int RECEIVED_AT = BLOCK_COLUMNS.indexOf(B.RECEIVED_AT) + 1;
  private static final int FEED_ID = BLOCK_COLUMNS.size() + 1;

  /** The statements of the authority's block log, rendered once per dialect. */
  static final class Queries {
    final Rendered byKey;
    final Rendered atPosition;
    final Rendered maxPosition;
    final Rendered claim;
    final boolean claimNotifies;
    final Rendered hold;
    final Rendered stamp;
    final Rendered chainAt;
    final Rendered setChain;
    final BlockInsert insert;
    final ScopedQuery after;
    final ScopedQuery between;

    Queries(DSLContext sql, StoreDialect dialect) {
      byKey = Rendered.of(selectBlocks(sql, dialect).where(B.FEED_PRIVATE_ID.eq(Params.FEED))
          .and(B.SEQUENCE.eq(Params.SEQUENCE)).and(B.ACTOR_ID.eq(Params.ACTOR)),
          Params.FEED, Params.SEQUENCE, Params.ACTOR);
      atPosition = Rendered.of(selectBlocks(sql, dialect).where(B.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(B.POSITION.eq(Params.POSITION)), Params.SPACE, Params.POSITION);
      // The highest block's position, or the floor when retention removed every block up to it.
      maxPosition = Rendered.of(sql.select(greatest(coalesce(select(max(BLOCKS.POSITION)).from(BLOCKS)
          .where(BLOCKS.SPACE_PRIVATE_ID.eq(SPACES.SPACE_PRIVATE_ID)).asField(), inline(0L)), SPACES.FLOOR_POSITION))
          .from(SPACES).where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)), Params.SPACE);
      // The counter after adding the claimed count, in one statement: the write transaction holds the
      // space's row (or the whole file) from here to its end, so appends to one space wait here.
      Field<?> notice = dialect.commitNotice(SPACES.SPACE_ID, SPACES.MAX_POSITION, SENDER);
      claimNotifies = notice != null;
      var claimed = sql.update(SPACES).set(SPACES.MAX_POSITION, SPACES.MAX_POSITION.plus(Params.COUNT))
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE));
      claim = claimNotifies
          ? Rendered.of(claimed.returningResult(SPACES.MAX_POSITION, notice), Params.COUNT, Params.SPACE, SENDER)
          : Rendered.of(claimed.returningResult(SPACES.MAX_POSITION), Params.COUNT, Params.SPACE);
      // Claiming nothing still takes the row, so that the caller holds the counter.
      hold = Rendered.of(dialect.holding(sql.select(SPACES.MAX_POSITION).from(SPACES)
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE))), Params.SPACE);
      // The space's receive time: now, or the last one handed out if a clock stepped back.
      stamp = Rendered.of(sql.update(SPACES).set(SPACES.LAST_RECEIVED_AT, greatest(SPACES.LAST_RECEIVED_AT, Params.NOW))
          .where(SPACES.SPACE_PRIVATE_ID.eq(Params.SPACE)).returningResult(SPACES.LAST_RECEIVED_AT),
          Params.NOW, Params.SPACE);
      chainAt = Rendered.of(sql.select(BLOCKS.CHAIN).from(BLOCKS).where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE))
          .and(BLOCKS.POSITION.eq(Params.POSITION)), Params.SPACE, Params.POSITION);
      setChain = Rendered.of(sql.update(BLOCKS).set(BLOCKS.CHAIN, Params.CHAIN)
          .where(BLOCKS.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(BLOCKS.POSITION.eq(Params.POSITION)),
          Params.CHAIN, Params.SPACE, Params.POSITION);
      insert = BlockInsert.of(sql);
      after = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(selectBlocks(sql, dialect)
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.gt(Params.CURSOR)).and(scope)
          .orderBy(B.POSITION).limit(Params.LIMIT), Params.SPACE, Params.CURSOR, scope, Params.LIMIT));
      between = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(selectBlocks(sql, dialect)
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.gt(Params.CURSOR))
          .and(B.POSITION.lt(Params.BELOW)).and(scope).orderBy(B.POSITION).limit(Params.LIMIT),
          Params.SPACE, Params.CURSOR, Params.BELOW, scope, Params.LIMIT));
    }
  }

  /**
   * {@code SELECT} of the columns a block is read from ({@link #toBlock}), from {@code blocks b},
   * joined with {@code feeds} for the feed's id where the dialect reads it so.
   */
  public static SelectJoinStep<Record> selectBlocks(DSLContext sql, StoreDialect dialect) {
    return dialect.joinsFeedIds()
        ? sql.select(blockColumns(dialect)).from(B.join(F).on(F.FEED_PRIVATE_ID.eq(B.FEED_PRIVATE_ID)))
        : sql.select(blockColumns(dialect)).from(B);
  }

  /** The columns a block is read from ({@link #toBlock}), of {@code blocks b} (and {@code feeds f} where joined). */
  public static List<Field<?>> blockColumns(StoreDialect dialect) {
    if (!dialect.joinsFeedIds()) {
      return BLOCK_COLUMNS;
    }
    List<Field<?>> columns = new ArrayList<>(BLOCK_COLUMNS);
    columns.add(F.FEED_ID);
    return columns;
  }

  protected final SqlTransaction tx;
  private final Queries queries;
  private final SqlFloors floors;

  protected SqlBlockLog(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().blocks;
    this.floors = new SqlFloors(tx);
  }

  @Override
  public InsertOutcome insert(SpaceId spaceId, Block block) {
    return insertAll(spaceId, List.of(block), null, queries.insert).get(0);
  }

  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks) {
    return insertAll(spaceId, blocks, null, queries.insert);
  }

  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, long[] chains) {
    if (chains.length != blocks.size()) {
      throw new IllegalArgumentException(chains.length + " chains for " + blocks.size() + " blocks");
    }
    return insertAll(spaceId, blocks, chains, queries.insert);
  }

  /**
   * Stores the blocks with one prepared statement, executed as a batch (PostgreSQL's driver sends
   * every row before it waits), which reports per row whether it was stored. Rows skipped because the
   * key or the position is held are classified afterwards, one by one, as {@link #insert} does.
   *
   * @param chains the history chain of each block, or null to record none
   */
  protected final List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, long[] chains,
      BlockInsert insert) {
    if (blocks.isEmpty()) {
      return List.of();
    }
    List<FeedRow> feeds = new ArrayList<>(blocks.size());
    for (Block block : blocks) {
      if (!block.position().isAssigned() && !tx.dialect().holdsUnpositionedBlocks()) {
        throw new IllegalArgumentException("block " + block.key() + " has no position: an authority stores every"
            + " block at a position it claimed");
      }
      feeds.add(tx.requireFeed(spaceId, block.feedId()));
    }
    int[] stored;
    try {
      PreparedStatement batch = tx.sql().prepared(insert.statement());
      batch.clearBatch();
      for (int i = 0; i < blocks.size(); i++) {
        insert.add(batch, feeds.get(i), blocks.get(i), chains, i);
      }
      stored = batch.executeBatch();
    } catch (SQLException e) {
      throw new SqlFailure("inserting blocks", e);
    }
    List<InsertOutcome> outcomes = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      if (stored[i] == 1) {
        tx.countBlocks(feeds.get(i).privateId(), 1);
        outcomes.add(new InsertOutcome.Inserted(block));
        continue;
      }
      Optional<Block> held = find(spaceId, feeds.get(i), block.key());
      if (held.isEmpty()) {
        Block holder = atPosition(spaceId, block.position()).orElse(null);
        throw new UniquenessViolationException("(space, position)",
            "position " + block.position() + " in space " + spaceId + " is held by "
                + (holder == null ? "another block" : "block " + holder.key())
                + "; cannot store block " + block.key() + " there", null);
      }
      outcomes.add(InsertOutcome.ofHeld(held.get(), block));
    }
    return outcomes;
  }

  @Override
  public void setChain(SpaceId spaceId, Position position, long chain) {
    tx.findSpace(spaceId).ifPresent(space -> tx.sql().update(queries.setChain, chain, space, position.value()));
  }

  @Override
  public OptionalLong chainAt(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return OptionalLong.empty();
    }
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return OptionalLong.empty();
    }
    Long chain = tx.sql().longValue(queries.chainAt, space.get(), position.value());
    if (chain == null) {
      // The block at the floor was removed; its chain is kept with the floor.
      SpaceFloor floor = floors.floor(spaceId);
      return floor.position().equals(position) ? floor.chain() : OptionalLong.empty();
    }
    return OptionalLong.of(chain);
  }

  @Override
  public Optional<Block> find(SpaceId spaceId, BlockKey key) {
    return tx.findFeed(spaceId, key.feedId()).flatMap(feed -> find(spaceId, feed, key));
  }

  protected final Optional<Block> find(SpaceId spaceId, FeedRow feed, BlockKey key) {
    return one(spaceId, queries.byKey, feed.privateId(), key.sequence().value(), key.actorId().value());
  }

  @Override
  public Optional<Block> atPosition(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    return tx.findSpace(spaceId).flatMap(space -> one(spaceId, queries.atPosition, space, position.value()));
  }

  @Override
  public List<Block> after(SpaceId spaceId, Scope scope, Position cursor, int limit) {
    return inScope(spaceId, scope, queries.after, List.of(cursor.value()), List.of(limit));
  }

  @Override
  public List<Block> between(SpaceId spaceId, Scope scope, Position cursor, Position below, int limit) {
    return inScope(spaceId, scope, queries.between, List.of(cursor.value(), below.value()), List.of(limit));
  }

  /**
   * The blocks of the space in {@code scope} that {@code statement} reads: its parameters are the
   * space, then {@code before}, then the scope's, then {@code after}.
   */
  protected final List<Block> inScope(SpaceId spaceId, Scope scope, ScopedQuery statement, List<Object> before,
      List<Object> after) {
    return inScope(spaceId, scope, statement, before, after, rs -> toBlock(spaceId, rs));
  }

  /**
   * The rows of {@code statement} over the space in {@code scope}, as {@code row} reads them (none when
   * the store holds nothing of the space, or the scope holds no feed): its parameters are the space,
   * then {@code before}, then the scope's, then {@code after}.
   */
  protected final <T> List<T> inScope(SpaceId spaceId, Scope scope, ScopedQuery statement, List<Object> before,
      List<Object> after, Sql.Row<T> row) {
    if (scope.isEmpty()) {
      return List.of();
    }
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.addAll(before);
    parameters.addAll(statement.parameters(space.get(), scope));
    parameters.addAll(after);
    return tx.sql().list(statement.statement(scope), row, parameters.toArray());
  }

  @Override
  public Position maxPosition(SpaceId spaceId) {
    return tx.findSpace(spaceId)
        .map(space -> SqlFeedCatalog.positionOf(tx.sql().longValue(queries.maxPosition, space)))
        .orElse(Position.NONE);
  }

  @Override
  public SpaceFloor floor(SpaceId spaceId) {
    return floors.floor(spaceId);
  }

  @Override
  public int compact(SpaceId spaceId, Position upTo, int maxBlocks) {
    return floors.compact(spaceId, upTo, maxBlocks);
  }

  @Override
  public Optional<Retention> retention(SpaceId spaceId) {
    return floors.retention(spaceId);
  }

  @Override
  public void setRetention(SpaceId spaceId, Optional<Retention> retention) {
    floors.setRetention(spaceId, retention);
  }

  @Override
  public Position lastBeyondBytes(SpaceId spaceId, long bytes) {
    return floors.lastBeyondBytes(spaceId, bytes);
  }

  @Override
  public Position lastReceivedBefore(SpaceId spaceId, long receivedAtMillis) {
    return floors.lastReceivedBefore(spaceId, receivedAtMillis);
  }

  @Override
  public long stampReceipt(SpaceId spaceId, long nowMillis) {
    if (!tx.writable()) {
      throw new IllegalStateException("receipts of space " + spaceId + " are stamped in a write transaction,"
          + " not in a read");
    }
    Long stamp = tx.sql().longValue(queries.stamp, nowMillis, tx.space(spaceId));
    if (stamp == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to stamp its receipts in");
    }
    return stamp;
  }

  /**
   * One {@code UPDATE ... RETURNING} of the space's row, which the write transaction holds until it
   * ends (a row lock, or the whole file where the database runs one write at a time), whichever
   * process or store writes; with it, where other processes need telling, the notification of the
   * commit. Claiming nothing reads the row, holding it as a claim would.
   */
  @Override
  public Position claimPositions(SpaceId spaceId, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, was " + count);
    }
    if (!tx.writable()) {
      throw new IllegalStateException("positions of space " + spaceId + " are claimed in a write transaction,"
          + " not in a read");
    }
    long space = tx.space(spaceId);
    Long counter;
    if (count == 0) {
      counter = tx.sql().longValue(queries.hold, space);
    } else if (queries.claimNotifies) {
      counter = tx.sql().longValue(queries.claim, (long) count, space, tx.dialect().commitSender(spaceId));
    } else {
      counter = tx.sql().longValue(queries.claim, (long) count, space);
    }
    if (counter == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to count its positions in");
    }
    return Position.of(counter - count);
  }

  protected final Optional<Block> one(SpaceId spaceId, Rendered statement, Object... parameters) {
    return tx.sql().one(statement, rs -> toBlock(spaceId, rs), parameters);
  }

  protected final List<Block> list(SpaceId spaceId, Rendered statement, Object... parameters) {
    return tx.sql().list(statement, rs -> toBlock(spaceId, rs), parameters);
  }

  /**
   * The block of the current row of a result set of {@link #selectBlocks}, once its values match
   * the checksum stored with them.
   *
   * @throws CorruptBlockException if they do not (or the row has no checksum)
   */
  protected final Block toBlock(SpaceId spaceId, ResultSet rs) throws SQLException {
    long feedPrivateId = rs.getLong(FEED_PRIVATE_ID);
    FeedId feedId = tx.dialect().joinsFeedIds() ? new FeedId(rs.getString(FEED_ID))
        : tx.feedById(feedPrivateId).feedId();
    long position = rs.getLong(POSITION); // 0 for NULL: unpositioned
    long sequence = rs.getLong(SEQUENCE);
    String actor = rs.getString(ACTOR_ID);
    long prevSequence = rs.getLong(PREV_SEQUENCE);
    String prevActor = rs.getString(PREV_ACTOR_ID);
    long timestamp = rs.getLong(TIMESTAMP);
    byte[] data = rs.getBytes(DATA);
    if (data == null) {
      data = NO_BYTES;
    }
    int stored = rs.getInt(CHECKSUM);
    boolean checked = !rs.wasNull();
    int computed = actor == null ? ~stored
        : BlockChecksum.of(feedId.value(), actor, sequence, prevActor, prevSequence, timestamp, data);
    if (!checked || computed != stored) {
      throw CorruptBlockException.ofStoredRow(spaceId, feedId.value(), position, sequence, actor, !checked
          ? "it has no checksum"
          : String.format("its stored bytes do not match the checksum written with it (stored %08x, computed %08x)",
              stored, computed));
    }
    Optional<Predecessor> predecessor = prevActor == null
        ? Optional.empty()
        : Optional.of(new Predecessor(new ActorId(prevActor), new Sequence(prevSequence)));
    long receivedAt = rs.getLong(RECEIVED_AT);
    OptionalLong received = rs.wasNull() || position == 0 ? OptionalLong.empty() : OptionalLong.of(receivedAt);
    return new Block(new BlockKey(feedId, new ActorId(actor), new Sequence(sequence)), predecessor, timestamp,
        BlockData.copyOf(data), Position.of(position), received);
  }
}
