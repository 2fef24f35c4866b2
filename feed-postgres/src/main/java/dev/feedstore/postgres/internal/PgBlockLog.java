package dev.feedstore.postgres.internal;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link BlockLog} over the {@code blocks} table, in PostgreSQL's SQL. Every block has a position;
 * reads join {@code feeds} for the feed's id (ids are not cached: see {@link PgTransaction}).
 */
final class PgBlockLog implements BlockLog {
  /** The columns {@link #toBlock} reads, in its order. */
  private static final String SELECT_BLOCKS = "SELECT f.feed_id, b.position, b.sequence, b.actor_id,"
      + " b.prev_sequence, b.prev_actor_id, b.timestamp, b.data, b.checksum, b.received_at"
      + " FROM blocks b JOIN feeds f ON f.feed_private_id = b.feed_private_id ";
  private static final String INSERT = "INSERT INTO blocks (space_private_id, feed_private_id, position, sequence,"
      + " actor_id, prev_sequence, prev_actor_id, timestamp, data, chain, checksum, received_at)"
      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
  private static final String BY_KEY = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.sequence = ? AND b.actor_id = ?";
  private static final String AT_POSITION = SELECT_BLOCKS + "WHERE b.space_private_id = ? AND b.position = ?";
  /** The highest block's position, or the floor when retention removed every block up to it. */
  private static final String MAX_POSITION = "SELECT greatest((SELECT max(position) FROM blocks"
      + " WHERE space_private_id = s.space_private_id), s.floor_position) FROM spaces s WHERE s.space_private_id = ?";
  /**
   * The counter after adding the claimed count. The row lock it takes is held until the transaction
   * ends, so appends to one space wait for each other here, in whatever process they run. The same
   * statement queues the notification of the new highest position ({@link CommitChannel}), which
   * PostgreSQL delivers to every listening process when, and only if, the transaction commits: one
   * round trip for both.
   */
  private static final String CLAIM = "WITH claimed AS (UPDATE spaces SET max_position = max_position + ?"
      + " WHERE space_private_id = ? RETURNING max_position)"
      + " SELECT max_position, pg_notify('" + CommitChannel.CHANNEL + "', ? || max_position) FROM claimed";
  /** Claiming nothing still takes the row, so that the caller holds the counter. */
  /** The space's receive time: now, or the last one handed out if a clock stepped back. */
  private static final String STAMP = "UPDATE spaces SET last_received_at = greatest(last_received_at, ?)"
      + " WHERE space_private_id = ? RETURNING last_received_at";
  private static final String HOLD = "SELECT max_position FROM spaces WHERE space_private_id = ? FOR NO KEY UPDATE";
  private static final String CHAIN_AT = "SELECT chain FROM blocks WHERE space_private_id = ? AND position = ?";
  private static final String SET_CHAIN = "UPDATE blocks SET chain = ? WHERE space_private_id = ? AND position = ?";
  /** A scope: its feeds by id or by namespace, as two arrays (one statement text, whatever their sizes). */
  private static final String IN_SCOPE = " AND b.feed_private_id IN (SELECT feed_private_id FROM feeds"
      + " WHERE space_private_id = ? AND (feed_id = ANY (?) OR feed_namespace = ANY (?)))";
  private static final byte[] NO_BYTES = new byte[0];

  private final PgTransaction tx;
  private final PgFloors floors;

  PgBlockLog(PgTransaction tx) {
    this.tx = tx;
    this.floors = new PgFloors(tx);
  }

  @Override
  public InsertOutcome insert(SpaceId spaceId, Block block) {
    return insertAll(spaceId, List.of(block), null).get(0);
  }

  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks) {
    return insertAll(spaceId, blocks, null);
  }

  /**
   * One prepared statement, sent as one batch (the driver sends every row before it waits for an
   * answer) that reports per row whether it was stored; rows skipped because the key or the position
   * is held are classified afterwards, one by one.
   *
   * @param chains the history chain of each block, or null to record none
   */
  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, long[] chains) {
    if (chains != null && chains.length != blocks.size()) {
      throw new IllegalArgumentException(chains.length + " chains for " + blocks.size() + " blocks");
    }
    if (blocks.isEmpty()) {
      return List.of();
    }
    List<FeedRow> feeds = new ArrayList<>(blocks.size());
    for (Block block : blocks) {
      if (!block.position().isAssigned()) {
        throw new IllegalArgumentException("block " + block.key() + " has no position: an authority stores every"
            + " block at a position it claimed");
      }
      feeds.add(tx.requireFeed(spaceId, block.feedId()));
    }
    int[] stored;
    try (PreparedStatement insert = tx.connection.prepareStatement(INSERT)) {
      for (int i = 0; i < blocks.size(); i++) {
        Block block = blocks.get(i);
        FeedRow feed = feeds.get(i);
        insert.setLong(1, feed.spacePrivateId());
        insert.setLong(2, feed.privateId());
        insert.setLong(3, block.position().value());
        insert.setLong(4, block.sequence().value());
        insert.setString(5, block.actorId().value());
        if (block.predecessor().isPresent()) {
          insert.setLong(6, block.predecessor().get().sequence().value());
          insert.setString(7, block.predecessor().get().actorId().value());
        } else {
          insert.setNull(6, Types.BIGINT);
          insert.setNull(7, Types.VARCHAR);
        }
        insert.setLong(8, block.timestamp());
        byte[] data = block.data().toByteArray();
        insert.setBytes(9, data);
        if (chains == null) {
          insert.setNull(10, Types.BIGINT);
        } else {
          insert.setLong(10, chains[i]);
        }
        insert.setInt(11, BlockChecksum.of(block, data));
        if (block.receivedAt().isPresent()) {
          insert.setLong(12, block.receivedAt().getAsLong());
        } else {
          insert.setNull(12, Types.BIGINT);
        }
        insert.addBatch();
      }
      stored = insert.executeBatch();
    } catch (SQLException e) {
      throw new SqlFailure("inserting blocks", e);
    }
    List<InsertOutcome> outcomes = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      if (stored[i] == 1) {
        tx.countInserted(feeds.get(i).privateId(), 1);
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
    tx.findSpace(spaceId).ifPresent(space -> Sql.update(tx.connection, SET_CHAIN, chain, space, position.value()));
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
    Long chain = Sql.longValue(tx.connection, CHAIN_AT, space.get(), position.value());
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

  private Optional<Block> find(SpaceId spaceId, FeedRow feed, BlockKey key) {
    return one(spaceId, BY_KEY, feed.privateId(), key.sequence().value(), key.actorId().value());
  }

  @Override
  public Optional<Block> atPosition(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    return tx.findSpace(spaceId).flatMap(space -> one(spaceId, AT_POSITION, space, position.value()));
  }

  @Override
  public List<Block> after(SpaceId spaceId, Scope scope, Position cursor, int limit) {
    return inScope(spaceId, scope, "b.position > ?", List.of(cursor.value()), limit);
  }

  @Override
  public List<Block> between(SpaceId spaceId, Scope scope, Position cursor, Position below, int limit) {
    return inScope(spaceId, scope, "b.position > ? AND b.position < ?", List.of(cursor.value(), below.value()), limit);
  }

  @Override
  public Position maxPosition(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> {
      Long max = Sql.longValue(tx.connection, MAX_POSITION, space);
      return max == null ? Position.NONE : Position.of(max);
    }).orElse(Position.NONE);
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
    if (!tx.writable) {
      throw new IllegalStateException("receipts of space " + spaceId + " are stamped in a write transaction,"
          + " not in a read");
    }
    Long stamp = Sql.longValue(tx.connection, STAMP, nowMillis, tx.space(spaceId));
    if (stamp == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to stamp its receipts in");
    }
    return stamp;
  }

  @Override
  public Position claimPositions(SpaceId spaceId, int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, was " + count);
    }
    if (!tx.writable) {
      throw new IllegalStateException("positions of space " + spaceId + " are claimed in a write transaction,"
          + " not in a read");
    }
    long space = tx.space(spaceId);
    Long counter = count == 0
        ? Sql.longValue(tx.connection, HOLD, space)
        : Sql.longValue(tx.connection, CLAIM, (long) count, space, CommitChannel.payloadPrefix(tx.state.instance(), spaceId));
    if (counter == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to count its positions in");
    }
    return Position.of(counter - count);
  }

  /** Blocks of the space in {@code scope} that meet {@code condition}, by position, at most {@code limit}. */
  private List<Block> inScope(SpaceId spaceId, Scope scope, String condition, List<Object> conditionParameters,
      int limit) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.addAll(conditionParameters);
    String scoped = "";
    if (scope instanceof Scope.Selection selection) {
      if (selection.isEmpty()) {
        return List.of();
      }
      scoped = IN_SCOPE;
      parameters.add(space.get());
      parameters.add(selection.feeds().stream().map(FeedId::value).toArray(String[]::new));
      parameters.add(selection.namespaces().stream().map(Namespace::value).toArray(String[]::new));
    }
    parameters.add(limit);
    return list(spaceId, SELECT_BLOCKS + "WHERE b.space_private_id = ? AND " + condition + scoped
        + " ORDER BY b.position LIMIT ?", parameters.toArray());
  }

  private Optional<Block> one(SpaceId spaceId, String sql, Object... parameters) {
    List<Block> blocks = list(spaceId, sql, parameters);
    return blocks.isEmpty() ? Optional.empty() : Optional.of(blocks.get(0));
  }

  private List<Block> list(SpaceId spaceId, String sql, Object... parameters) {
    return Sql.list(tx.connection, sql, rs -> toBlock(spaceId, rs), parameters);
  }

  private static OptionalLong receivedAt(long value, boolean absent) {
    return absent ? OptionalLong.empty() : OptionalLong.of(value);
  }

  /**
   * The block of the current row of a result set of {@link #SELECT_BLOCKS}, once its values match
   * the checksum stored with them.
   *
   * @throws CorruptBlockException if they do not
   */
  private static Block toBlock(SpaceId spaceId, ResultSet rs) throws SQLException {
    String feedId = rs.getString(1);
    long position = rs.getLong(2);
    long sequence = rs.getLong(3);
    String actor = rs.getString(4);
    long prevSequence = rs.getLong(5);
    String prevActor = rs.getString(6);
    long timestamp = rs.getLong(7);
    byte[] data = rs.getBytes(8);
    if (data == null) {
      data = NO_BYTES;
    }
    int stored = rs.getInt(9);
    int computed = BlockChecksum.of(feedId, actor, sequence, prevActor, prevSequence, timestamp, data);
    if (computed != stored) {
      throw CorruptBlockException.ofStoredRow(spaceId, feedId, position, sequence, actor, String.format(
          "its stored bytes do not match the checksum written with it (stored %08x, computed %08x)", stored, computed));
    }
    Optional<Predecessor> predecessor = prevActor == null
        ? Optional.empty()
        : Optional.of(new Predecessor(new ActorId(prevActor), new Sequence(prevSequence)));
    return new Block(new BlockKey(new FeedId(feedId), new ActorId(actor), new Sequence(sequence)), predecessor,
        timestamp, BlockData.copyOf(data), Position.of(position), receivedAt(rs.getLong(10), rs.wasNull()));
  }

}
