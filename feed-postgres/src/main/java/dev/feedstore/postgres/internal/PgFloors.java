package dev.feedstore.postgres.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedLoss;
import dev.feedstore.core.store.Retention;
import dev.feedstore.core.store.SpaceFloor;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The floor of each space ({@link SpaceFloor}) in the space's row, the compaction that raises it,
 * and the space's own {@link Retention} with what it lets go of, in PostgreSQL's SQL on one transaction. Not thread-safe (as its transaction).
 */
final class PgFloors {
  private static final String FLOOR = "SELECT floor_position, floor_feed_id, floor_actor_id, floor_sequence,"
      + " floor_chain FROM spaces WHERE space_private_id = ?";
  /**
   * The floor, holding the space's row until the transaction ends: compactions of one space, and
   * appends to it (which take the row for the counter), wait for each other, in whatever process.
   */
  private static final String FLOOR_HELD = FLOOR + " FOR NO KEY UPDATE";
  /** The lowest blocks above the floor, up to a position: served by the index on (space, position). */
  private static final String LOWEST = "SELECT b.position, b.feed_private_id, f.feed_id, b.actor_id, b.sequence,"
      + " b.chain FROM blocks b JOIN feeds f ON f.feed_private_id = b.feed_private_id"
      + " WHERE b.space_private_id = ? AND b.position > ? AND b.position <= ? ORDER BY b.position LIMIT ?";
  private static final String REMOVE = "DELETE FROM blocks WHERE space_private_id = ? AND position > ? AND position <= ?";
  /** The highest position and sequence each feed lost, raised in one statement for the feeds of a batch. */
  private static final String LOST = "UPDATE feeds f SET removed_up_to = greatest(f.removed_up_to, d.p),"
      + " removed_max_sequence = greatest(f.removed_max_sequence, d.s)"
      + " FROM unnest(?, ?, ?) AS d(id, p, s) WHERE f.feed_private_id = d.id";
  private static final String RAISE = "UPDATE spaces SET floor_position = ?, floor_feed_id = ?, floor_actor_id = ?,"
      + " floor_sequence = ?, floor_chain = ? WHERE space_private_id = ?";

  private static final String RETENTION = "SELECT retain_blocks, retain_age_ms, retain_bytes FROM spaces"
      + " WHERE space_private_id = ?";
  private static final String SET_RETENTION = "UPDATE spaces SET retain_blocks = ?, retain_age_ms = ?, retain_bytes = ?"
      + " WHERE space_private_id = ?";
  /** The last block received before a time: one step down the index on (space, receive time, position). */
  private static final String LAST_BEFORE_TIME = "SELECT position FROM blocks WHERE space_private_id = ?"
      + " AND received_at < ? ORDER BY received_at DESC, position DESC LIMIT 1";
  /** The highest block at which the data of it and every block above it is more than a size. */
  private static final String BEYOND_BYTES = "SELECT max(position) FROM (SELECT position, sum(length(data))"
      + " OVER (ORDER BY position DESC) AS kept FROM blocks WHERE space_private_id = ?) k WHERE kept > ?";

  private final PgTransaction tx;

  PgFloors(PgTransaction tx) {
    this.tx = tx;
  }

  SpaceFloor floor(SpaceId spaceId) {
    return tx.findSpace(spaceId).map(space -> floor(space, FLOOR)).orElse(SpaceFloor.NONE);
  }

  private SpaceFloor floor(long space, String sql) {
    List<SpaceFloor> rows = Sql.list(tx.connection, sql, rs -> SpaceFloor.of(rs.getLong(1), rs.getString(2), rs.getString(3),
        nullable(rs, 4), nullable(rs, 5)), space);
    return rows.isEmpty() ? SpaceFloor.NONE : rows.get(0);
  }

  int compact(SpaceId spaceId, Position upTo, int maxBlocks) {
    if (maxBlocks <= 0) {
      throw new IllegalArgumentException("maxBlocks must be > 0, was " + maxBlocks);
    }
    if (!tx.writable) {
      throw new IllegalStateException("space " + spaceId + " is compacted in a write transaction, not in a read");
    }
    Optional<Long> found = tx.findSpace(spaceId);
    if (found.isEmpty()) {
      return 0;
    }
    long space = found.get();
    long floor = floor(space, FLOOR_HELD).position().value();
    List<Removed> removed = Sql.list(tx.connection, LOWEST, rs -> {
      return new Removed(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getLong(5), nullable(rs, 6));
    }, space, floor, upTo.value(), maxBlocks);
    if (removed.isEmpty()) {
      return 0;
    }
    Removed last = removed.get(removed.size() - 1);
    Sql.update(tx.connection, REMOVE, space, floor, last.position());
    Map<Long, Long> perFeed = new HashMap<>();
    Map<Long, FeedLoss> lostPerFeed = new HashMap<>();
    for (Removed block : removed) {
      perFeed.merge(block.feedPrivateId(), -1L, Long::sum);
      lostPerFeed.merge(block.feedPrivateId(), new FeedLoss(block.position(), block.sequence()), FeedLoss::and);
    }
    perFeed.forEach(tx::countInserted);
    List<Long> feeds = List.copyOf(lostPerFeed.keySet());
    Sql.update(tx.connection, LOST, feeds.toArray(Long[]::new),
        feeds.stream().map(feed -> lostPerFeed.get(feed).upTo()).toArray(Long[]::new),
        feeds.stream().map(feed -> lostPerFeed.get(feed).maxSequence()).toArray(Long[]::new));
    Sql.update(tx.connection, RAISE, last.position(), last.feedId(), last.actorId(), last.sequence(), last.chain(), space);
    return removed.size();
  }

  private static Long nullable(ResultSet rs, int column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  private record Removed(long position, long feedPrivateId, String feedId, String actorId, long sequence, Long chain) {}

  Optional<Retention> retention(SpaceId spaceId) {
    return tx.findSpace(spaceId).flatMap(space -> Sql.list(tx.connection, RETENTION, rs -> {
      Long blocks = nullable(rs, 1);
      Long age = nullable(rs, 2);
      Long bytes = nullable(rs, 3);
      return blocks == null && age == null && bytes == null ? Optional.<Retention>empty()
          : Optional.of(Retention.of(zeroIfNull(blocks), zeroIfNull(age), zeroIfNull(bytes)));
    }, space).stream().findFirst().flatMap(found -> found));
  }

  void setRetention(SpaceId spaceId, Optional<Retention> retention) {
    if (!tx.writable) {
      throw new IllegalStateException("the retention of space " + spaceId + " is set in a write transaction");
    }
    long space = tx.space(spaceId);
    Sql.update(tx.connection, SET_RETENTION, retention.map(r -> r.blocks().orElse(0)).orElse(null),
        retention.map(r -> r.ageMillis().orElse(0)).orElse(null), retention.map(r -> r.bytes().orElse(0)).orElse(null),
        space);
  }

  Position lastReceivedBefore(SpaceId spaceId, long receivedAtMillis) {
    Long last = tx.findSpace(spaceId)
        .map(space -> Sql.longValue(tx.connection, LAST_BEFORE_TIME, space, receivedAtMillis)).orElse(null);
    return last == null ? Position.NONE : Position.of(last);
  }

  Position lastBeyondBytes(SpaceId spaceId, long bytes) {
    Long beyond = tx.findSpace(spaceId).map(space -> Sql.longValue(tx.connection, BEYOND_BYTES, space, bytes)).orElse(null);
    return beyond == null ? Position.NONE : Position.of(beyond);
  }

  private static long zeroIfNull(Long value) {
    return value == null ? 0 : value;
  }
}
