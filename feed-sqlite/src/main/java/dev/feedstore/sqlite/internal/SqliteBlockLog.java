package dev.feedstore.sqlite.internal;

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
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.core.store.ReplicaBlockLog;
import dev.feedstore.core.store.Retention;
import dev.feedstore.core.store.SpaceFloor;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.core.store.UniquenessViolationException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ReplicaBlockLog} (and so the authority's {@link dev.feedstore.core.store.BlockLog}) over the
 * {@code blocks} table, in plain SQL on the connection's cached prepared statements (the hot paths
 * of appends and pulls run these for every block).
 */
final class SqliteBlockLog implements ReplicaBlockLog {
  /**
   * The columns {@link #toBlock} reads, in its order. The feed's id comes from the cached feed rows
   * ({@link SqliteTransaction#feedById}), not from a join.
   */
  private static final String BLOCK_COLUMNS = "b.feed_private_id, b.position, b.sequence, b.actor_id,"
      + " b.prev_sequence, b.prev_actor_id, b.timestamp, b.data, b.checksum, b.received_at";
  private static final String SELECT_BLOCKS = "SELECT " + BLOCK_COLUMNS + " FROM blocks b ";
  /** The push order: by feed, then sequence and actor. */
  private static final String PUSH_ORDER = " ORDER BY b.feed_private_id, b.sequence, b.actor_id";
  private static final String INSERT = "INSERT INTO blocks (space_private_id, feed_private_id, position, sequence,"
      + " actor_id, prev_sequence, prev_actor_id, timestamp, data, published, chain, checksum, received_at)"
      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
  private static final String KEY_CONDITION = "feed_private_id = ? AND sequence = ? AND actor_id = ?";
  /** The columns of a block row, as {@link #setAside} copies them. */
  private static final String ROW_COLUMNS = "space_private_id, feed_private_id, position, sequence, actor_id,"
      + " prev_sequence, prev_actor_id, timestamp, data, published, chain, checksum";
  private static final byte[] NO_BYTES = new byte[0];
  private static final String BY_KEY = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.sequence = ? AND b.actor_id = ?";
  private static final String AT_POSITION = SELECT_BLOCKS + "WHERE b.space_private_id = ? AND b.position = ?";
  private static final String FEED_POSITIONED = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.position IS NOT NULL ORDER BY b.position";
  private static final String FEED_UNPOSITIONED = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.position IS NULL ORDER BY b.sequence, b.actor_id";
  private static final String LAST_POSITIONED = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.position IS NOT NULL ORDER BY b.position DESC LIMIT 1";
  private static final String LAST_UNPOSITIONED = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.position IS NULL ORDER BY b.sequence DESC, b.actor_id DESC LIMIT 1";
  private static final String MAX_SEQUENCE = "SELECT max(sequence) FROM blocks WHERE feed_private_id = ?";
  /** The highest block's position, or the floor when retention removed every block up to it. */
  private static final String MAX_POSITION = "SELECT max(coalesce((SELECT max(position) FROM blocks"
      + " WHERE space_private_id = s.space_private_id), 0), s.floor_position) FROM spaces s WHERE s.space_private_id = ?";
  /** The counter after adding the claimed count: one statement, which the write transaction serializes. */
  private static final String CLAIM =
      "UPDATE spaces SET max_position = max_position + ? WHERE space_private_id = ? RETURNING max_position";
  private static final String COUNTER = "SELECT max_position FROM spaces WHERE space_private_id = ?";
  /** The space's receive time: now, or the last one handed out if the clock stepped back. */
  private static final String STAMP = "UPDATE spaces SET last_received_at = max(last_received_at, ?)"
      + " WHERE space_private_id = ? RETURNING last_received_at";
  private static final String LAST_BEFORE = SELECT_BLOCKS
      + "WHERE b.space_private_id = ? AND b.position < ? ORDER BY b.position DESC LIMIT 1";
  private static final String SET_POSITION =
      "UPDATE blocks SET position = ?, chain = NULL, received_at = NULL"
          + " WHERE feed_private_id = ? AND sequence = ? AND actor_id = ?";
  private static final String BY_SEQUENCE_RANGE = SELECT_BLOCKS
      + "WHERE b.feed_private_id = ? AND b.sequence BETWEEN ? AND ?";
  private static final String POSITION_RANGE = SELECT_BLOCKS
      + "WHERE b.space_private_id = ? AND b.position BETWEEN ? AND ?";
  /** Lookups by a list of values bind at most this many at once. */
  private static final int LOOKUP_CHUNK = 500;
  /**
   * Values asked about are looked up as one range when the range is at most this many times as
   * long as the list: it then reads at most that many rows per value asked about.
   */
  private static final int DENSE = 4;

  private final SqliteTransaction tx;
  private final SqliteFloors floors;

  SqliteBlockLog(SqliteTransaction tx) {
    this.tx = tx;
    this.floors = new SqliteFloors(tx);
  }

  @Override
  public InsertOutcome insert(SpaceId spaceId, Block block) {
    return insertAll(spaceId, List.of(block)).get(0);
  }

  /**
   * One prepared statement, executed as a batch: SQLite reports per row whether it was stored. Rows
   * it skipped (the key or the position is held) are classified afterwards, one by one, as {@link
   * #insert} does.
   */
  @Override
  public InsertOutcome insertLocal(SpaceId spaceId, Block block) {
    return insertAll(spaceId, List.of(block), false, null).get(0);
  }

  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks) {
    return insertAll(spaceId, blocks, true, null);
  }

  @Override
  public List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, long[] chains) {
    if (chains.length != blocks.size()) {
      throw new IllegalArgumentException(chains.length + " chains for " + blocks.size() + " blocks");
    }
    return insertAll(spaceId, blocks, true, chains);
  }

  @Override
  public void setChain(SpaceId spaceId, Position position, long chain) {
    tx.findSpace(spaceId).ifPresent(space -> update(
        "UPDATE blocks SET chain = ? WHERE space_private_id = ? AND position = ?", chain, space, position.value()));
  }

  @Override
  public java.util.OptionalLong chainAt(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return java.util.OptionalLong.empty();
    }
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return java.util.OptionalLong.empty();
    }
    Long chain = longValue("SELECT chain FROM blocks WHERE space_private_id = ? AND position = ?",
        space.get(), position.value());
    if (chain == null) {
      // The block at the floor was removed; its chain is kept with the floor.
      SpaceFloor floor = floors.floor(spaceId);
      return floor.position().equals(position) ? floor.chain() : java.util.OptionalLong.empty();
    }
    return java.util.OptionalLong.of(chain);
  }

  @Override
  public Optional<Position> chainedAtOrBelow(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    // Backwards along (space, position) until a row with a chain: a replica records one a page.
    return tx.findSpace(spaceId).flatMap(space -> Optional.ofNullable(longValue(
        "SELECT position FROM blocks WHERE space_private_id = ? AND position <= ? AND position IS NOT NULL"
            + " AND chain IS NOT NULL ORDER BY position DESC LIMIT 1", space, position.value())))
        .map(Position::of);
  }

  @Override
  public int forgetChains(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> update(
        "UPDATE blocks SET chain = NULL WHERE space_private_id = ? AND chain IS NOT NULL", space)).orElse(0);
  }

  /** @param chains the history chain of each block, or null to record none */
  private List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, boolean published, long[] chains) {
    if (blocks.isEmpty()) {
      return List.of();
    }
    List<FeedRow> feeds = new ArrayList<>(blocks.size());
    for (Block block : blocks) {
      feeds.add(tx.requireFeed(spaceId, block.feedId()));
    }
    int[] stored;
    try {
      PreparedStatement insert = tx.statements.get(INSERT);
      insert.clearBatch();
      for (int i = 0; i < blocks.size(); i++) {
        Block block = blocks.get(i);
        FeedRow feed = feeds.get(i);
        insert.setLong(1, feed.spacePrivateId());
        insert.setLong(2, feed.privateId());
        setPosition(insert, 3, block.position());
        insert.setLong(4, block.sequence().value());
        insert.setString(5, block.actorId().value());
        if (block.predecessor().isPresent()) {
          insert.setLong(6, block.predecessor().get().sequence().value());
          insert.setString(7, block.predecessor().get().actorId().value());
        } else {
          insert.setNull(6, Types.INTEGER);
          insert.setNull(7, Types.VARCHAR);
        }
        insert.setLong(8, block.timestamp());
        byte[] data = block.data().toByteArray();
        insert.setBytes(9, data);
        insert.setInt(10, published ? 1 : 0);
        if (chains == null) {
          insert.setNull(11, Types.INTEGER);
        } else {
          insert.setLong(11, chains[i]);
        }
        insert.setInt(12, BlockChecksum.of(block, data));
        if (block.receivedAt().isPresent()) {
          insert.setLong(13, block.receivedAt().getAsLong());
        } else {
          insert.setNull(13, Types.INTEGER);
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
        tx.countInserted(feeds.get(i).privateId());
        outcomes.add(new InsertOutcome.Inserted(block));
        continue;
      }
      Optional<Block> held = find(feeds.get(i), block.key());
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
  public void markPublished(SpaceId spaceId, Collection<BlockKey> keys, boolean published) {
    for (BlockKey key : keys) {
      tx.findFeed(spaceId, key.feedId()).ifPresent(feed -> update(
          "UPDATE blocks SET published = ? WHERE feed_private_id = ? AND sequence = ? AND actor_id = ?",
          published ? 1 : 0, feed.privateId(), key.sequence().value(), key.actorId().value()));
    }
  }

  @Override
  public Set<BlockKey> unpublished(SpaceId spaceId, Collection<BlockKey> keys) {
    Set<BlockKey> result = new java.util.LinkedHashSet<>();
    for (BlockKey key : keys) {
      Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
      if (feed.isPresent() && longValue("SELECT count(*) FROM blocks WHERE feed_private_id = ? AND sequence = ?"
          + " AND actor_id = ? AND published = 0", feed.get().privateId(), key.sequence().value(),
          key.actorId().value()) > 0) {
        result.add(key);
      }
    }
    return result;
  }

  @Override
  public Optional<Block> find(SpaceId spaceId, BlockKey key) {
    return tx.findFeed(spaceId, key.feedId()).flatMap(feed -> find(feed, key));
  }

  private Optional<Block> find(FeedRow feed, BlockKey key) {
    return one(BY_KEY, feed.privateId(), key.sequence().value(), key.actorId().value());
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
      List<BlockKey> feedKeys = entry.getValue();
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (BlockKey key : feedKeys) {
        min = Math.min(min, key.sequence().value());
        max = Math.max(max, key.sequence().value());
      }
      if (max - min < DENSE * (long) feedKeys.size()) {
        for (Block block : list(BY_SEQUENCE_RANGE, feed.get().privateId(), min, max)) {
          held.put(block.key(), block);
        }
        continue;
      }
      for (int from = 0; from < feedKeys.size(); from += LOOKUP_CHUNK) {
        List<BlockKey> chunk = feedKeys.subList(from, Math.min(feedKeys.size(), from + LOOKUP_CHUNK));
        Object[] parameters = new Object[chunk.size() + 1];
        parameters[0] = feed.get().privateId();
        for (int i = 0; i < chunk.size(); i++) {
          parameters[i + 1] = chunk.get(i).sequence().value();
        }
        String sql = SELECT_BLOCKS + "WHERE b.feed_private_id = ? AND b.sequence IN (" + marks(chunk.size()) + ")";
        for (Block block : list(sql, parameters)) {
          held.put(block.key(), block);
        }
      }
    }
    Map<BlockKey, Block> found = new LinkedHashMap<>();
    if (held.isEmpty()) {
      return found;
    }
    for (BlockKey key : keys) {
      Block block = held.get(key);
      if (block != null) {
        found.put(key, block);
      }
    }
    return found;
  }

  @Override
  public Optional<Block> atPosition(SpaceId spaceId, Position position) {
    if (!position.isAssigned()) {
      return Optional.empty();
    }
    return tx.findSpace(spaceId).flatMap(space -> one(AT_POSITION, space, position.value()));
  }

  /** One query: a range of positions when they are dense, a list otherwise. */
  @Override
  public Map<Position, Block> atPositions(SpaceId spaceId, Collection<Position> positions) {
    Map<Position, Block> found = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty() || positions.isEmpty()) {
      return found;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int assigned = 0;
    for (Position position : positions) {
      if (position.isAssigned()) {
        min = Math.min(min, position.value());
        max = Math.max(max, position.value());
        assigned++;
      }
    }
    if (assigned == 0) {
      return found;
    }
    if (max - min < DENSE * (long) assigned) {
      List<Block> inRange = list(POSITION_RANGE, space.get(), min, max);
      if (!inRange.isEmpty()) {
        Set<Position> wanted = new HashSet<>(positions);
        for (Block block : inRange) {
          if (wanted.contains(block.position())) {
            found.put(block.position(), block);
          }
        }
      }
      return found;
    }
    List<Long> values = positions.stream().filter(Position::isAssigned).map(Position::value).distinct().toList();
    for (int from = 0; from < values.size(); from += LOOKUP_CHUNK) {
      List<Long> chunk = values.subList(from, Math.min(values.size(), from + LOOKUP_CHUNK));
      List<Object> parameters = new ArrayList<>(chunk.size() + 1);
      parameters.add(space.get());
      parameters.addAll(chunk);
      String sql = SELECT_BLOCKS + "WHERE b.space_private_id = ? AND b.position IN (" + marks(chunk.size()) + ")";
      for (Block block : list(sql, parameters.toArray())) {
        found.put(block.position(), block);
      }
    }
    return found;
  }

  /** Positioned blocks by position, then unpositioned ones by sequence and actor: two index scans. */
  @Override
  public List<Block> feed(SpaceId spaceId, FeedId feedId) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return List.of();
    }
    List<Block> blocks = list(FEED_POSITIONED, feed.get().privateId());
    blocks.addAll(list(FEED_UNPOSITIONED, feed.get().privateId()));
    return blocks;
  }

  @Override
  public Optional<Block> lastInFeed(SpaceId spaceId, FeedId feedId) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return Optional.empty();
    }
    Optional<Block> unpositioned = one(LAST_UNPOSITIONED, feed.get().privateId());
    return unpositioned.isPresent() ? unpositioned : one(LAST_POSITIONED, feed.get().privateId());
  }

  @Override
  public Optional<Sequence> maxSequence(SpaceId spaceId, FeedId feedId) {
    return tx.findFeed(spaceId, feedId)
        .flatMap(feed -> Optional.ofNullable(longValue(MAX_SEQUENCE, feed.privateId())).map(Sequence::new));
  }

  @Override
  public List<Block> after(SpaceId spaceId, Scope scope, Position cursor, int limit) {
    return inScope(spaceId, scope, "b.position > ?", List.of(cursor.value()), " ORDER BY b.position LIMIT ?", limit);
  }

  @Override
  public List<Block> between(SpaceId spaceId, Scope scope, Position cursor, Position below, int limit) {
    return inScope(spaceId, scope, "b.position > ? AND b.position < ?", List.of(cursor.value(), below.value()),
        " ORDER BY b.position LIMIT ?", limit);
  }

  /** Copies the row into {@code set_aside_blocks} as it is, then deletes it: its columns are never decoded. */
  @Override
  public boolean setAside(SpaceId spaceId, BlockKey key) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
    if (feed.isEmpty()) {
      return false;
    }
    Object[] row = {feed.get().privateId(), key.sequence().value(), key.actorId().value()};
    if (update("INSERT INTO set_aside_blocks (" + ROW_COLUMNS + ") SELECT " + ROW_COLUMNS + " FROM blocks WHERE "
        + KEY_CONDITION, row) == 0) {
      return false;
    }
    update("DELETE FROM blocks WHERE " + KEY_CONDITION, row);
    tx.countInserted(feed.get().privateId(), -1);
    return true;
  }

  @Override
  public Optional<Block> lastBefore(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).flatMap(space -> one(LAST_BEFORE, space, position.value()));
  }

  @Override
  public Position maxPosition(SpaceId spaceId) {
    return tx.findSpace(spaceId)
        .map(space -> SqliteFeedCatalog.positionOf(longValue(MAX_POSITION, space)))
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
    if (!tx.writable) {
      throw new IllegalStateException("receipts of space " + spaceId + " are stamped in a write transaction,"
          + " not in a read");
    }
    Long stamp = longValue(STAMP, nowMillis, tx.space(spaceId));
    if (stamp == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to stamp its receipts in");
    }
    return stamp;
  }

  /**
   * One {@code UPDATE ... RETURNING} of the space's row. SQLite runs one write transaction at a time
   * on the file ({@code BEGIN IMMEDIATE}), so the row is the transaction's until it ends, whichever
   * process or store holds the file; claiming nothing reads the row without writing it.
   */
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
    Long counter = count == 0 ? longValue(COUNTER, space) : longValue(CLAIM, count, space);
    if (counter == null) {
      throw new IllegalStateException("space " + spaceId + " has no row to count its positions in");
    }
    return Position.of(counter - count);
  }

  @Override
  public List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit) {
    return inScope(spaceId, scope, "b.position IS NULL", List.of(), PUSH_ORDER + " LIMIT ?", limit);
  }

  /**
   * Three steps in one statement: the first {@code limit} candidates in push order, as ids and data
   * sizes (SQLite reads the size of a blob from its record header, without the blob); a running sum
   * of their sizes; and the rows of those within the budget. So a push reads at most {@code limit}
   * candidates, like a plain {@code LIMIT}, and the data of the blocks it returns only.
   */
  @Override
  public List<Block> unpositioned(SpaceId spaceId, Scope scope, Set<FeedId> leftOut, int limit, int maxBlockData,
      long maxData) {
    Optional<Long> space = tx.findSpace(spaceId);
    ScopeSql scoped = space.map(s -> ScopeSql.of(s, scope)).orElse(null);
    if (scoped == null || scoped.isEmpty()) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.add(maxBlockData);
    String without = "";
    if (!leftOut.isEmpty()) {
      without = " AND b.feed_private_id NOT IN (SELECT feed_private_id FROM feeds WHERE space_private_id = ?"
          + " AND feed_id IN (SELECT value FROM json_each(?)))";
      parameters.add(space.get());
      parameters.add(Sql.json(leftOut));
    }
    parameters.addAll(scoped.parameters());
    parameters.add(limit);
    parameters.add(maxData);
    String candidates = "SELECT b.block_private_id AS id, length(b.data) AS size, b.feed_private_id AS f,"
        + " b.sequence AS s, b.actor_id AS a FROM blocks b"
        + " WHERE b.space_private_id = ? AND b.position IS NULL AND length(b.data) <= ?" + without
        + scoped.condition() + PUSH_ORDER + " LIMIT ?";
    return list("SELECT " + BLOCK_COLUMNS + " FROM (SELECT id, size, sum(size) OVER (ORDER BY f, s, a"
        + " ROWS UNBOUNDED PRECEDING) AS running FROM (" + candidates + ")) w"
        + " JOIN blocks b ON b.block_private_id = w.id WHERE w.running <= ? OR w.running = w.size" + PUSH_ORDER,
        parameters.toArray());
  }

  @Override
  public Map<BlockKey, Integer> unpositionedLarger(SpaceId spaceId, Scope scope, int maxBlockData, int limit) {
    Map<BlockKey, Integer> result = new LinkedHashMap<>();
    Optional<Long> space = tx.findSpace(spaceId);
    ScopeSql scoped = space.map(s -> ScopeSql.of(s, scope)).orElse(null);
    if (scoped == null || scoped.isEmpty()) {
      return result;
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.add(maxBlockData);
    parameters.addAll(scoped.parameters());
    parameters.add(limit);
    Sql.list(tx, "SELECT b.feed_private_id, b.actor_id, b.sequence, length(b.data) FROM blocks b"
        + " WHERE b.space_private_id = ? AND b.position IS NULL AND length(b.data) > ?" + scoped.condition()
        + PUSH_ORDER + " LIMIT ?", rs -> result.put(new BlockKey(tx.feedById(rs.getLong(1)).feedId(),
            new ActorId(rs.getString(2)), new Sequence(rs.getLong(3))), rs.getInt(4)), parameters.toArray());
    return result;
  }

  /**
   * Blocks of the space in {@code scope} that meet {@code condition} (with its parameters), then
   * {@code tail} (order and limit, with its parameter).
   */
  private List<Block> inScope(SpaceId spaceId, Scope scope, String condition, List<Object> conditionParameters,
      String tail, Object tailParameter) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    ScopeSql scoped = ScopeSql.of(space.get(), scope);
    if (scoped.isEmpty()) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.addAll(conditionParameters);
    parameters.addAll(scoped.parameters());
    parameters.add(tailParameter);
    return list(SELECT_BLOCKS + "WHERE b.space_private_id = ? AND " + condition + scoped.condition() + tail,
        parameters.toArray());
  }

  @Override
  public long countUnpositioned(SpaceId spaceId, Scope scope) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return 0;
    }
    ScopeSql scoped = ScopeSql.of(space.get(), scope);
    if (scoped.isEmpty()) {
      return 0;
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.addAll(scoped.parameters());
    Long count = longValue("SELECT count(*) FROM blocks b WHERE b.space_private_id = ? AND b.position IS NULL"
        + scoped.condition(), parameters.toArray());
    return count == null ? 0 : count;
  }

  @Override
  public boolean setPosition(SpaceId spaceId, BlockKey key, Position position) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, key.feedId());
    if (feed.isEmpty()) {
      return false;
    }
    try {
      PreparedStatement update = tx.statements.get(SET_POSITION);
      setPosition(update, 1, position);
      update.setLong(2, feed.get().privateId());
      update.setLong(3, key.sequence().value());
      update.setString(4, key.actorId().value());
      return update.executeUpdate() == 1;
    } catch (SQLException e) {
      if (!SqlErrors.isConstraintViolation(e)) {
        throw new SqlFailure("setting the position of block " + key, e);
      }
      Block holder = atPosition(spaceId, position).orElse(null);
      throw new UniquenessViolationException(SqlErrors.constraintOf(String.valueOf(e.getMessage())),
          "position " + position + " in space " + spaceId + " is held by "
              + (holder == null ? "another block" : "block " + holder.key())
              + "; cannot give it to block " + key, e);
    }
  }

  @Override
  public int clearPositions(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> update(
        "UPDATE blocks SET position = NULL, chain = NULL, received_at = NULL"
            + " WHERE space_private_id = ? AND position IS NOT NULL", space))
        .orElse(0);
  }

  @Override
  public int clearPositionsAbove(SpaceId spaceId, Position position) {
    return tx.findSpace(spaceId).map(space -> update(
        "UPDATE blocks SET position = NULL, chain = NULL, received_at = NULL"
            + " WHERE space_private_id = ? AND position > ?", space,
        position.value()))
        .orElse(0);
  }

  @Override
  public void rekey(SpaceId spaceId, BlockKey key, Sequence newSequence) {
    FeedRow feed = tx.requireFeed(spaceId, key.feedId());
    Block block = find(feed, key).orElseThrow(() ->
        new IllegalStateException("cannot re-key block " + key + ": it is not stored"));
    if (block.isPositioned()) {
      throw new IllegalStateException("cannot re-key block " + key + ": it is positioned at "
          + block.position() + ", and positioned blocks are immutable");
    }
    try {
      update("UPDATE blocks SET sequence = ?, checksum = ? WHERE " + KEY_CONDITION, newSequence.value(),
          checksum(block, newSequence, block.predecessor()), feed.privateId(), key.sequence().value(),
          key.actorId().value());
    } catch (RuntimeException e) {
      if (SqlErrors.isSqlError(e)) {
        throw new UniquenessViolationException("(feed, sequence, actor)", "cannot re-key block " + key
            + " to sequence " + newSequence + ": that key is taken", e);
      }
      throw e;
    }
    relinkUnpublished(feed, key, newSequence);
  }

  @Override
  public void mergeInto(SpaceId spaceId, BlockKey from, BlockKey to) {
    FeedRow feed = tx.requireFeed(spaceId, from.feedId());
    Block source = find(feed, from).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + ": it is not stored"));
    Block target = find(spaceId, to).orElseThrow(() ->
        new IllegalStateException("cannot merge block " + from + " into " + to + ": " + to + " is not stored"));
    if (source.isPositioned() || !to.feedId().equals(from.feedId()) || !to.actorId().equals(from.actorId())
        || !source.withSequence(to.sequence()).sameContentAs(target)) {
      throw new IllegalStateException("cannot merge block " + from + " into " + to
          + ": only an unpositioned block with the same content may merge");
    }
    relinkUnpublished(feed, from, to.sequence());
    update("DELETE FROM blocks WHERE feed_private_id = ? AND sequence = ? AND actor_id = ?",
        feed.privateId(), from.sequence().value(), from.actorId().value());
    tx.countInserted(feed.privateId(), -1);
  }

  /**
   * Points the unpublished, unpositioned blocks that followed {@code key} at its new sequence, each
   * with the checksum of its new content (there are few: only this replica has seen them).
   */
  private void relinkUnpublished(FeedRow feed, BlockKey key, Sequence newSequence) {
    List<Block> followers = list(SELECT_BLOCKS + "WHERE b.feed_private_id = ? AND b.prev_actor_id = ?"
        + " AND b.prev_sequence = ? AND b.position IS NULL AND b.published = 0",
        feed.privateId(), key.actorId().value(), key.sequence().value());
    Optional<Predecessor> moved = Optional.of(new Predecessor(key.actorId(), newSequence));
    for (Block follower : followers) {
      update("UPDATE blocks SET prev_sequence = ?, checksum = ? WHERE " + KEY_CONDITION, newSequence.value(),
          checksum(follower, follower.sequence(), moved), feed.privateId(), follower.sequence().value(),
          follower.actorId().value());
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

  // ---------------------------------------------------------------- plain SQL

  private Optional<Block> one(String sql, Object... parameters) {
    List<Block> blocks = list(sql, parameters);
    return blocks.isEmpty() ? Optional.empty() : Optional.of(blocks.get(0));
  }

  private List<Block> list(String sql, Object... parameters) {
    return Sql.list(tx, sql, this::toBlock, parameters);
  }

  private Long longValue(String sql, Object... parameters) {
    return Sql.longValue(tx, sql, parameters);
  }

  private int update(String sql, Object... parameters) {
    return Sql.update(tx, sql, parameters);
  }

  private static void setPosition(PreparedStatement statement, int index, Position position) throws SQLException {
    if (position.isAssigned()) {
      statement.setLong(index, position.value());
    } else {
      statement.setNull(index, Types.INTEGER);
    }
  }

  private static String marks(int count) {
    return Sql.marks(count);
  }

  /**
   * The block of the current row of a result set of {@link #SELECT_BLOCKS}, once its values match
   * the checksum stored with them.
   *
   * @throws CorruptBlockException if they do not
   */
  private Block toBlock(ResultSet rs) throws SQLException {
    FeedRow feed = tx.feedById(rs.getLong(1));
    long position = rs.getLong(2); // 0 for NULL: unpositioned
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
    boolean checked = !rs.wasNull();
    int computed = actor == null ? ~stored
        : BlockChecksum.of(feed.feedId().value(), actor, sequence, prevActor, prevSequence, timestamp, data);
    if (!checked || computed != stored) {
      throw corrupt(feed, position, sequence, actor, !checked
          ? "it has no checksum"
          : String.format("its stored bytes do not match the checksum written with it (stored %08x, computed %08x)",
              stored, computed));
    }
    Optional<Predecessor> predecessor = prevActor == null
        ? Optional.empty()
        : Optional.of(new Predecessor(new ActorId(prevActor), new Sequence(prevSequence)));
    long receivedAt = rs.getLong(10);
    java.util.OptionalLong received = rs.wasNull() || position == 0
        ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(receivedAt);
    return new Block(new BlockKey(feed.feedId(), new ActorId(actor), new Sequence(sequence)), predecessor, timestamp,
        BlockData.copyOf(data), Position.of(position), received);
  }

  /**
   * The failure of a corrupt row: a {@link CorruptBlockException} naming its key as stored, or, when
   * the stored key is not even a valid key, a {@link StoreException} naming its values.
   */
  private StoreException corrupt(FeedRow feed, long position, long sequence, String actor, String detail) {
    return CorruptBlockException.ofStoredRow(tx.spaceIdOf(feed.spacePrivateId()), feed.feedId().value(), position,
        sequence, actor, detail);
  }


  /** A scope as an SQL condition on {@code b.feed_private_id}, with its parameters. */
  private record ScopeSql(String condition, List<Object> parameters, boolean isEmpty) {
    static ScopeSql of(long space, Scope scope) {
      if (!(scope instanceof Scope.Selection selection)) {
        return new ScopeSql("", List.of(), false);
      }
      if (selection.isEmpty()) {
        return new ScopeSql("", List.of(), true);
      }
      List<Object> parameters = new ArrayList<>();
      parameters.add(space);
      List<String> members = new ArrayList<>();
      if (!selection.feeds().isEmpty()) {
        members.add("feed_id IN (" + marks(selection.feeds().size()) + ")");
        selection.feeds().stream().map(FeedId::value).sorted().forEach(parameters::add);
      }
      if (!selection.namespaces().isEmpty()) {
        members.add("feed_namespace IN (" + marks(selection.namespaces().size()) + ")");
        selection.namespaces().stream().map(Namespace::value).sorted().forEach(parameters::add);
      }
      return new ScopeSql(" AND b.feed_private_id IN (SELECT feed_private_id FROM feeds WHERE space_private_id = ?"
          + " AND (" + String.join(" OR ", members) + "))", parameters, false);
    }
  }
}
