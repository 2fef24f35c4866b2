package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.ProducerMark;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.store.StreamRecordColumns;
import dev.feedstore.core.store.StreamRecordRow;
import dev.feedstore.core.store.UniquenessViolationException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@link StreamCatalog} in the {@code streams} and {@code stream_producers} tables (schema version
 * 5), read by every process on every use, as subscriptions are.
 *
 * <p>Several processes write one stream's record, so a write transaction serializes on the stream
 * before it reads it: {@link #find} and {@link #get} take a lock of the transaction on the stream's
 * space and name (an advisory lock, so a name not created yet is locked too). A transaction locks a
 * fork before its source (it finds the fork, then gets or finds the source), never the other way,
 * so two of them cannot wait for each other. Writes run in {@code READ COMMITTED}, so every
 * statement after the lock sees what the previous holder committed: a producer's sequence, a
 * closure, a generation or the forks still reading a source is checked against the latest one,
 * whatever process wrote it. {@link #countNotGone} locks the space likewise, so
 * that the count a new stream is checked on holds until it is stored. Read-only transactions take
 * no lock and read their snapshot.
 */
final class PgStreamCatalog implements StreamCatalog {
  private static final String COLUMNS = "stream_private_id, space_id, name, generation, feed_id, content_type,"
      + " created_at, ttl_seconds, expires_at, touched_at, fork_of, base_position, fork_sub_offset, closed_position,"
      + " closed_by_producer, closed_by_epoch, closed_by_seq, stream_seq, state";
  /** A row of {@link #COLUMNS} as its record. */
  private static final Sql.Row<StreamRecord> RECORD = rs -> StreamRecordColumns.read(rs::getObject);
  private static final String LOCK_STREAM = "SELECT pg_advisory_xact_lock(hashtextextended(?, 11))";
  private static final String LOCK_SPACE = "SELECT pg_advisory_xact_lock(hashtextextended(?, 13))";
  private static final String FIND = "SELECT " + COLUMNS + " FROM streams WHERE space_id = ? AND name = ?"
      + " AND state <> 'gone'";
  private static final String OF_FEEDS = "SELECT " + COLUMNS + " FROM streams WHERE space_id = ? AND feed_id = ANY(?)";
  private static final String GET = "SELECT " + COLUMNS + " FROM streams WHERE stream_private_id = ?";
  private static final String NEXT_GENERATION = "SELECT max(generation) FROM streams WHERE space_id = ? AND name = ?";
  private static final String INSERT = "INSERT INTO streams (space_id, name, generation, feed_id, content_type,"
      + " created_at, ttl_seconds, expires_at, touched_at, fork_of, base_position, fork_sub_offset, closed_position,"
      + " closed_by_producer, closed_by_epoch, closed_by_seq, stream_seq, state)"
      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING stream_private_id";
  private static final String UPDATE = "UPDATE streams SET touched_at = ?, closed_position = ?,"
      + " closed_by_producer = ?, closed_by_epoch = ?, closed_by_seq = ?, stream_seq = ?, state = ?"
      + " WHERE stream_private_id = ?";
  private static final String FORKS = "SELECT count(*) FROM streams WHERE fork_of = ? AND state <> 'gone'";
  private static final String COUNT = "SELECT count(*) FROM streams WHERE space_id = ? AND state <> 'gone'";
  private static final String PRODUCER = "SELECT epoch, last_seq FROM stream_producers WHERE stream_private_id = ?"
      + " AND producer_id = ?";
  private static final String PUT_PRODUCER = "INSERT INTO stream_producers (stream_private_id, producer_id, epoch,"
      + " last_seq) VALUES (?, ?, ?, ?) ON CONFLICT (stream_private_id, producer_id) DO UPDATE"
      + " SET epoch = excluded.epoch, last_seq = excluded.last_seq";

  /** The higher of the feed's stored and removed sequences (greatest skips NULLs); NULL for neither. */
  private static final String MAX_SEQUENCE = "SELECT greatest((SELECT max(b.sequence) FROM blocks b"
      + " WHERE b.feed_private_id = f.feed_private_id), f.removed_max_sequence) FROM feeds f"
      + " JOIN spaces s ON s.space_private_id = f.space_private_id WHERE s.space_id = ? AND f.feed_id = ?";
  private static final String REMOVED_UP_TO = "SELECT f.removed_up_to FROM feeds f JOIN spaces s"
      + " ON s.space_private_id = f.space_private_id WHERE s.space_id = ? AND f.feed_id = ?";

  private final PgTransaction tx;

  PgStreamCatalog(PgTransaction tx) {
    this.tx = tx;
  }

  @Override
  public Optional<StreamRecord> find(SpaceId spaceId, String name) {
    if (tx.writable) {
      lock(spaceId, name);
    }
    return Sql.list(tx.connection, FIND, RECORD, spaceId.value(), name).stream().findFirst();
  }

  @Override
  public Optional<StreamRecord> get(long id) {
    Optional<StreamRecord> record = Sql.list(tx.connection, GET, RECORD, id).stream().findFirst();
    if (record.isEmpty() || !tx.writable) {
      return record;
    }
    // Locked as find locks it, then read again: the first read may predate the holder's commit.
    lock(record.get().spaceId(), record.get().name());
    return Sql.list(tx.connection, GET, RECORD, id).stream().findFirst();
  }

  /** Waits for, then holds until this transaction ends, the lock of the stream of this name. */
  private void lock(SpaceId spaceId, String name) {
    Sql.list(tx.connection, LOCK_STREAM, rs -> null, spaceId.value() + "/" + name);
  }

  @Override
  public List<StreamRecord> ofFeeds(SpaceId spaceId, Set<FeedId> feedIds) {
    if (feedIds.isEmpty()) {
      return List.of();
    }
    return Sql.list(tx.connection, OF_FEEDS, RECORD, spaceId.value(),
        feedIds.stream().map(FeedId::value).toArray(String[]::new));
  }

  @Override
  public long nextGeneration(SpaceId spaceId, String name) {
    Long last = Sql.longValue(tx.connection, NEXT_GENERATION, spaceId.value(), name);
    return last == null ? 0 : last + 1;
  }

  @Override
  public long insert(StreamRecord r) {
    try {
      return Sql.longValue(tx.connection, INSERT, StreamRecordRow.withoutId(r));
    } catch (SqlFailure e) {
      if (PgFaults.isUniqueViolation(e.sqlException())) {
        throw new UniquenessViolationException("(space, name) of a stream that is not gone",
            "space '" + r.spaceId().value() + "' already holds a stream named '" + r.name() + "' that is not gone", e);
      }
      throw e;
    }
  }

  @Override
  public void update(StreamRecord r) {
    Sql.update(tx.connection, UPDATE, StreamRecordRow.changes(r));
  }

  @Override
  public long forksNotGone(long id) {
    return Sql.longValue(tx.connection, FORKS, id);
  }

  @Override
  public long countNotGone(SpaceId spaceId) {
    if (tx.writable) {
      Sql.list(tx.connection, LOCK_SPACE, rs -> null, spaceId.value());
    }
    return Sql.longValue(tx.connection, COUNT, spaceId.value());
  }

  @Override
  public Optional<ProducerMark> producer(long streamId, String producerId) {
    return Sql.list(tx.connection, PRODUCER, rs -> new ProducerMark(producerId, rs.getLong(1), rs.getLong(2)),
        streamId, producerId).stream().findFirst();
  }

  @Override
  public void putProducer(long streamId, ProducerMark mark) {
    Sql.update(tx.connection, PUT_PRODUCER, streamId, mark.producerId(), mark.epoch(), mark.seq());
  }

  @Override
  public OptionalLong maxSequence(SpaceId spaceId, FeedId feedId) {
    Long max = Sql.longValue(tx.connection, MAX_SEQUENCE, spaceId.value(), feedId.value());
    return max == null ? OptionalLong.empty() : OptionalLong.of(max);
  }

  @Override
  public OptionalLong lastPosition(SpaceId spaceId, FeedId feedId) {
    return feedMax("position", spaceId, feedId);
  }

  @Override
  public long removedUpTo(SpaceId spaceId, FeedId feedId) {
    Long removed = Sql.longValue(tx.connection, REMOVED_UP_TO, spaceId.value(), feedId.value());
    return removed == null ? 0 : removed;
  }

  /** The highest {@code column} of the feed's blocks, read from the database in one statement. */
  private OptionalLong feedMax(String column, SpaceId spaceId, FeedId feedId) {
    Long max = Sql.longValue(tx.connection, "SELECT max(b." + column + ") FROM blocks b JOIN feeds f"
        + " ON f.feed_private_id = b.feed_private_id JOIN spaces s ON s.space_private_id = f.space_private_id"
        + " WHERE s.space_id = ? AND f.feed_id = ?", spaceId.value(), feedId.value());
    return max == null ? OptionalLong.empty() : OptionalLong.of(max);
  }
}
