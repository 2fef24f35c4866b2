package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.BLOCKS;

import dev.feedstore.core.Block;
import dev.feedstore.core.store.BlockChecksum;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The statement that stores a block unless its key or position is held ({@code ON CONFLICT DO
 * NOTHING}), rendered once, with the number of each of its parameters, so that an append's batch
 * binds its values straight into the cached prepared statement: the hottest statement of the store.
 * Immutable.
 */
public final class BlockInsert {
  private static final Param<Long> PREV_SEQUENCE = Params.number("prev_sequence");
  private static final Param<String> PREV_ACTOR = Params.text("prev_actor");
  private static final Param<Long> TIMESTAMP = Params.number("timestamp");
  private static final Param<byte[]> DATA = DSL.param("data", SQLDataType.BLOB);
  private static final Param<Long> RECEIVED_AT = Params.number("received_at");

  private final Rendered statement;
  private final int space;
  private final int feed;
  private final int position;
  private final int sequence;
  private final int actor;
  private final int prevSequence;
  private final int prevActor;
  private final int timestamp;
  private final int data;
  private final int chain;
  private final int checksum;
  private final int receivedAt;

  private BlockInsert(Rendered statement) {
    this.statement = statement;
    space = statement.parameter(Params.SPACE);
    feed = statement.parameter(Params.FEED);
    position = statement.parameter(Params.POSITION);
    sequence = statement.parameter(Params.SEQUENCE);
    actor = statement.parameter(Params.ACTOR);
    prevSequence = statement.parameter(PREV_SEQUENCE);
    prevActor = statement.parameter(PREV_ACTOR);
    timestamp = statement.parameter(TIMESTAMP);
    data = statement.parameter(DATA);
    chain = statement.parameter(Params.CHAIN);
    checksum = statement.parameter(Params.CHECKSUM);
    receivedAt = statement.parameter(RECEIVED_AT);
  }

  /** The insert of a block's columns; columns it leaves out take their defaults. */
  public static BlockInsert of(DSLContext sql) {
    return of(sql, null, null);
  }

  /** The insert of a block's columns and {@code column} set to {@code value} (a constant of the statement). */
  public static <T> BlockInsert of(DSLContext sql, Field<T> column, T value) {
    List<Field<?>> columns = new ArrayList<>(List.of(BLOCKS.SPACE_PRIVATE_ID, BLOCKS.FEED_PRIVATE_ID, BLOCKS.POSITION,
        BLOCKS.SEQUENCE, BLOCKS.ACTOR_ID, BLOCKS.PREV_SEQUENCE, BLOCKS.PREV_ACTOR_ID, BLOCKS.TIMESTAMP, BLOCKS.DATA,
        BLOCKS.CHAIN, BLOCKS.CHECKSUM, BLOCKS.RECEIVED_AT));
    List<Field<?>> values = new ArrayList<>(List.of(Params.SPACE, Params.FEED, Params.POSITION, Params.SEQUENCE,
        Params.ACTOR, PREV_SEQUENCE, PREV_ACTOR, TIMESTAMP, DATA, Params.CHAIN, Params.CHECKSUM, RECEIVED_AT));
    if (column != null) {
      columns.add(column);
      values.add(DSL.inline(value, column));
    }
    return new BlockInsert(Rendered.of(sql.insertInto(BLOCKS).columns(columns).values(values).onConflictDoNothing(),
        Params.SPACE, Params.FEED, Params.POSITION, Params.SEQUENCE, Params.ACTOR, PREV_SEQUENCE, PREV_ACTOR, TIMESTAMP,
        DATA, Params.CHAIN, Params.CHECKSUM, RECEIVED_AT));
  }

  public Rendered statement() {
    return statement;
  }

  /**
   * Adds {@code block} of the feed to the statement's batch, with its checksum.
   *
   * @param chains the history chain of each block of the batch, or null to record none
   * @param index the block's place in the batch
   */
  void add(PreparedStatement insert, FeedRow row, Block block, long[] chains, int index) throws SQLException {
    insert.setLong(space, row.spacePrivateId());
    insert.setLong(feed, row.privateId());
    if (block.position().isAssigned()) {
      insert.setLong(position, block.position().value());
    } else {
      insert.setNull(position, Types.BIGINT);
    }
    insert.setLong(sequence, block.sequence().value());
    insert.setString(actor, block.actorId().value());
    if (block.predecessor().isPresent()) {
      insert.setLong(prevSequence, block.predecessor().get().sequence().value());
      insert.setString(prevActor, block.predecessor().get().actorId().value());
    } else {
      insert.setNull(prevSequence, Types.BIGINT);
      insert.setNull(prevActor, Types.VARCHAR);
    }
    insert.setLong(timestamp, block.timestamp());
    byte[] bytes = block.data().toByteArray();
    insert.setBytes(data, bytes);
    if (chains == null) {
      insert.setNull(chain, Types.BIGINT);
    } else {
      insert.setLong(chain, chains[index]);
    }
    insert.setInt(checksum, BlockChecksum.of(block, bytes));
    if (block.receivedAt().isPresent()) {
      insert.setLong(receivedAt, block.receivedAt().getAsLong());
    } else {
      insert.setNull(receivedAt, Types.BIGINT);
    }
    insert.addBatch();
  }
}
