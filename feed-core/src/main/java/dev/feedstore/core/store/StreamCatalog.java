package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The authority's records of Durable Streams ({@link StreamRecord}) and the state of their
 * idempotent producers. Only the authority keeps them: a stream's blocks are an ordinary feed,
 * which replicas hold like any other. The views of one {@link AuthorityTransaction}: every change
 * commits or rolls back with the blocks the same transaction appends. Not thread-safe.
 */
public interface StreamCatalog {

  /** The record of the stream of this name that is not gone (live, or deleted but read by forks). */
  Optional<StreamRecord> find(SpaceId spaceId, String name);

  /** The record with this id, whatever its state. */
  Optional<StreamRecord> get(long id);

  /**
   * The records, whatever their state, whose feeds are among {@code feedIds} in the space (a feed
   * is one record's at most: its id derives from the name and the generation), in no order. Takes
   * no lock: a write that must see a close committed by another process first holds the space's
   * position counter ({@link BlockLog#claimPositions}), as a close does.
   */
  List<StreamRecord> ofFeeds(SpaceId spaceId, Set<FeedId> feedIds);

  /** The generation the next stream of this name gets: one more than the last one, 0 for a new name. */
  long nextGeneration(SpaceId spaceId, String name);

  /**
   * Stores a new record (its {@code id} is ignored) and returns its id.
   *
   * @throws UniquenessViolationException if a record of the name that is not gone exists
   */
  long insert(StreamRecord record);

  /** Writes the changing fields of a stored record: renewal, closure, Stream-Seq, state. */
  void update(StreamRecord record);

  /** How many records name this one as their source and are not gone. */
  long forksNotGone(long id);

  /** How many records of the space are not gone: the streams that count under its limit of feeds. */
  long countNotGone(SpaceId spaceId);

  /** The state of a producer of a stream, if it has appended (or closed) before. */
  Optional<ProducerMark> producer(long streamId, String producerId);

  /** Stores the state of a producer of a stream, replacing what was stored. */
  void putProducer(long streamId, ProducerMark mark);

  /**
   * The highest block sequence the feed has held, whoever wrote it: of the blocks it stores and of
   * those retention removed ({@link BlockLog#compact}); empty for a feed that never held a block. The
   * next block the authority writes to a stream's feed takes one more (the feed's Lamport rule, as a
   * replica's blocks do), so its key is never one a removed block had, which replicas may still hold.
   */
  OptionalLong maxSequence(SpaceId spaceId, FeedId feedId);

  /**
   * The highest position of the feed's blocks, from this transaction's snapshot; empty for a feed
   * without positioned blocks (or none at all): where a stream's own content ends.
   */
  OptionalLong lastPosition(SpaceId spaceId, FeedId feedId);

  /**
   * The highest position of the feed's blocks that retention removed ({@link BlockLog#compact}), 0
   * when it removed none (or the feed has no blocks): a stream's content up to there is gone, and
   * nothing of it above there is.
   */
  long removedUpTo(SpaceId spaceId, FeedId feedId);
}
