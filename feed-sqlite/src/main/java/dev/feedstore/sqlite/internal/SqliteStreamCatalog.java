package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ProducerMark;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.store.StreamRecordColumns;
import dev.feedstore.core.store.StreamRecordRow;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@link StreamCatalog} in the {@code streams} and {@code stream_producers} tables (schema version
 * 7), in plain SQL on the transaction's cached statements: every stream request reads a record.
 * Spaces are named by id, like subscriptions, so a stream stores no space row before its first
 * block does.
 */
final class SqliteStreamCatalog implements StreamCatalog {
  private static final String COLUMNS = "stream_private_id, space_id, name, generation, feed_id, content_type,"
      + " created_at, ttl_seconds, expires_at, touched_at, fork_of, base_position, fork_sub_offset, closed_position,"
      + " closed_by_producer, closed_by_epoch, closed_by_seq, stream_seq, state";
  /** A row of {@link #COLUMNS} as its record. */
  private static final Sql.Row<StreamRecord> RECORD = rs -> StreamRecordColumns.read(rs::getObject);
  /**
   * The higher of the feed's stored and removed sequences (-1 for neither, no row for no feed), read
   * from the file as {@link #feedMax} is.
   */
  private static final String MAX_SEQUENCE = "SELECT max(coalesce((SELECT max(b.sequence) FROM blocks b"
      + " WHERE b.feed_private_id = f.feed_private_id), -1), coalesce(f.removed_max_sequence, -1)) FROM feeds f"
      + " JOIN spaces s ON s.space_private_id = f.space_private_id WHERE s.space_id = ? AND f.feed_id = ?";

  private final SqliteTransaction tx;

  SqliteStreamCatalog(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<StreamRecord> find(SpaceId spaceId, String name) {
    return Sql.list(tx, "SELECT " + COLUMNS + " FROM streams WHERE space_id = ? AND name = ? AND state <> 'gone'",
        RECORD, spaceId.value(), name).stream().findFirst();
  }

  @Override
  public Optional<StreamRecord> get(long id) {
    return Sql.list(tx, "SELECT " + COLUMNS + " FROM streams WHERE stream_private_id = ?",
        RECORD, id).stream().findFirst();
  }

  @Override
  public List<StreamRecord> ofFeeds(SpaceId spaceId, Set<FeedId> feedIds) {
    if (feedIds.isEmpty()) {
      return List.of();
    }
    return Sql.list(tx, "SELECT " + COLUMNS + " FROM streams WHERE space_id = ? AND feed_id IN"
        + " (SELECT value FROM json_each(?))", RECORD, spaceId.value(), Sql.json(feedIds));
  }

  @Override
  public long nextGeneration(SpaceId spaceId, String name) {
    Long last = Sql.longValue(tx, "SELECT max(generation) FROM streams WHERE space_id = ? AND name = ?",
        spaceId.value(), name);
    return last == null ? 0 : last + 1;
  }

  @Override
  public long insert(StreamRecord r) {
    Sql.update(tx, "INSERT INTO streams (space_id, name, generation, feed_id, content_type, created_at, ttl_seconds,"
            + " expires_at, touched_at, fork_of, base_position, fork_sub_offset, closed_position,"
            + " closed_by_producer, closed_by_epoch, closed_by_seq, stream_seq, state)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", StreamRecordRow.withoutId(r));
    return Sql.longValue(tx, "SELECT last_insert_rowid()");
  }

  @Override
  public void update(StreamRecord r) {
    Sql.update(tx, "UPDATE streams SET touched_at = ?, closed_position = ?, closed_by_producer = ?,"
        + " closed_by_epoch = ?, closed_by_seq = ?, stream_seq = ?, state = ? WHERE stream_private_id = ?",
        StreamRecordRow.changes(r));
  }

  @Override
  public long forksNotGone(long id) {
    return Sql.longValue(tx, "SELECT count(*) FROM streams WHERE fork_of = ? AND state <> 'gone'", id);
  }

  @Override
  public long countNotGone(SpaceId spaceId) {
    return Sql.longValue(tx, "SELECT count(*) FROM streams WHERE space_id = ? AND state <> 'gone'", spaceId.value());
  }

  @Override
  public Optional<ProducerMark> producer(long streamId, String producerId) {
    return Sql.list(tx, "SELECT epoch, last_seq FROM stream_producers WHERE stream_private_id = ?"
        + " AND producer_id = ?", rs -> new ProducerMark(producerId, rs.getLong(1), rs.getLong(2)), streamId,
        producerId).stream().findFirst();
  }

  @Override
  public void putProducer(long streamId, ProducerMark mark) {
    Sql.update(tx, "INSERT INTO stream_producers (stream_private_id, producer_id, epoch, last_seq) VALUES (?, ?, ?, ?)"
        + " ON CONFLICT (stream_private_id, producer_id) DO UPDATE SET epoch = excluded.epoch,"
        + " last_seq = excluded.last_seq", streamId, mark.producerId(), mark.epoch(), mark.seq());
  }

  @Override
  public OptionalLong maxSequence(SpaceId spaceId, FeedId feedId) {
    Long max = Sql.longValue(tx, MAX_SEQUENCE, spaceId.value(), feedId.value());
    return max == null || max < 0 ? OptionalLong.empty() : OptionalLong.of(max);
  }

  @Override
  public OptionalLong lastPosition(SpaceId spaceId, FeedId feedId) {
    return feedMax("position", spaceId, feedId);
  }

  @Override
  public long removedUpTo(SpaceId spaceId, FeedId feedId) {
    Long removed = Sql.longValue(tx, "SELECT f.removed_up_to FROM feeds f JOIN spaces s"
        + " ON s.space_private_id = f.space_private_id WHERE s.space_id = ? AND f.feed_id = ?",
        spaceId.value(), feedId.value());
    return removed == null ? 0 : removed;
  }

  /**
   * The highest {@code column} of the feed's blocks, read from the file (not the id cache, which
   * may know a feed a concurrent write created after this transaction's snapshot).
   */
  private OptionalLong feedMax(String column, SpaceId spaceId, FeedId feedId) {
    Long max = Sql.longValue(tx, "SELECT max(b." + column + ") FROM blocks b JOIN feeds f ON f.feed_private_id ="
        + " b.feed_private_id JOIN spaces s ON s.space_private_id = f.space_private_id WHERE s.space_id = ?"
        + " AND f.feed_id = ?", spaceId.value(), feedId.value());
    return max == null ? OptionalLong.empty() : OptionalLong.of(max);
  }
}
