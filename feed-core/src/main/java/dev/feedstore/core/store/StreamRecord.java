package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the authority stores about one Durable Stream besides its blocks, which live in its feed:
 * its configuration (content type, TTL or expiry, the stream it was forked from), its closure, the
 * last {@code Stream-Seq} and its lifecycle state. One record per stream: a name deleted and
 * created again gets a new record with the next generation, and a feed of its own.
 *
 * @param id the store's id of the record (0 before it is stored)
 * @param spaceId the space of the stream's feed
 * @param name the stream's name
 * @param generation how many streams of this name came before it
 * @param feedId the feed holding the stream's own blocks
 * @param contentType the content type given at creation
 * @param createdAtMillis when it was created, Unix milliseconds
 * @param ttlSeconds the sliding time-to-live, if it has one: reads and writes renew it
 * @param expiresAtMillis the absolute expiry, if it has one
 * @param touchedAtMillis the last read or write that renews the TTL
 * @param forkOf the id of the record it was forked from, if it is a fork
 * @param basePosition where its own content begins: a fork holds its source's content up to this
 *     position and its own feed's blocks above it; 0 for a stream that is not a fork
 * @param forkSubOffset the sub-offset a fork was created with (0 for none)
 * @param closedPosition the position at which it was closed (its content ends there), if closed
 * @param closedBy the producer tuple whose append closed it, if a producer closed it
 * @param streamSeq the last {@code Stream-Seq} accepted, if any
 * @param state whether it is live, deleted but still read by forks, or gone
 */
public record StreamRecord(long id, SpaceId spaceId, String name, long generation, FeedId feedId, String contentType,
    long createdAtMillis, OptionalLong ttlSeconds, OptionalLong expiresAtMillis, long touchedAtMillis,
    OptionalLong forkOf, long basePosition, long forkSubOffset, OptionalLong closedPosition,
    Optional<ProducerMark> closedBy, Optional<String> streamSeq, State state) {

  /** Where a stream is in its life. */
  public enum State {
    /** Readable and writable. */
    LIVE,
    /** Deleted (or expired) while forks still read its content: kept for them, gone to everyone else. */
    DELETED,
    /** Deleted, with no fork left to read it: its name is free again. */
    GONE
  }

  /**
   * A record with every part given.
   *
   * @throws NullPointerException if a part of an object type is null rather than empty
   * @throws IllegalArgumentException if {@code generation}, {@code basePosition} or {@code forkSubOffset} is
   *     negative
   */
  public StreamRecord {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(feedId, "feedId");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(ttlSeconds, "ttlSeconds");
    Objects.requireNonNull(expiresAtMillis, "expiresAtMillis");
    Objects.requireNonNull(forkOf, "forkOf");
    Objects.requireNonNull(closedPosition, "closedPosition");
    Objects.requireNonNull(closedBy, "closedBy");
    Objects.requireNonNull(streamSeq, "streamSeq");
    Objects.requireNonNull(state, "state");
    if (generation < 0 || basePosition < 0 || forkSubOffset < 0) {
      throw new IllegalArgumentException("generation, basePosition and forkSubOffset must be >= 0");
    }
  }

  /**
   * When it expires, in Unix milliseconds: its absolute expiry, or its last renewal plus its TTL,
   * whichever comes first; empty when it has neither.
   */
  public OptionalLong deadlineMillis() {
    long deadline = Long.MAX_VALUE;
    if (expiresAtMillis.isPresent()) {
      deadline = expiresAtMillis.getAsLong();
    }
    if (ttlSeconds.isPresent()) {
      deadline = Math.min(deadline, touchedAtMillis + Math.min(ttlSeconds.getAsLong(), Long.MAX_VALUE / 2000) * 1000);
    }
    return deadline == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(deadline);
  }

  /** True when it is live but its deadline has passed at {@code nowMillis}. */
  public boolean expiredAt(long nowMillis) {
    return state == State.LIVE && deadlineMillis().isPresent() && deadlineMillis().getAsLong() <= nowMillis;
  }

  /** True once it was closed: its content ends at {@link #closedPosition()} and takes no more appends. */
  public boolean isClosed() {
    return closedPosition.isPresent();
  }

  /** The same record under the id {@code newId} (the id the store gave it when it inserted it). */
  public StreamRecord withId(long newId) {
    return new StreamRecord(newId, spaceId, name, generation, feedId, contentType, createdAtMillis, ttlSeconds,
        expiresAtMillis, touchedAtMillis, forkOf, basePosition, forkSubOffset, closedPosition, closedBy, streamSeq,
        state);
  }

  /** The same record renewed at {@code millis} (Unix milliseconds), which moves a TTL's deadline. */
  public StreamRecord withTouchedAt(long millis) {
    return new StreamRecord(id, spaceId, name, generation, feedId, contentType, createdAtMillis, ttlSeconds,
        expiresAtMillis, millis, forkOf, basePosition, forkSubOffset, closedPosition, closedBy, streamSeq, state);
  }

  /** The same record closed at {@code position}, by the producer tuple {@code by} if a producer closed it. */
  public StreamRecord withClosed(long position, Optional<ProducerMark> by) {
    return new StreamRecord(id, spaceId, name, generation, feedId, contentType, createdAtMillis, ttlSeconds,
        expiresAtMillis, touchedAtMillis, forkOf, basePosition, forkSubOffset, OptionalLong.of(position), by,
        streamSeq, state);
  }

  /** The same record with {@code seq} as the last {@code Stream-Seq} accepted. */
  public StreamRecord withStreamSeq(String seq) {
    return new StreamRecord(id, spaceId, name, generation, feedId, contentType, createdAtMillis, ttlSeconds,
        expiresAtMillis, touchedAtMillis, forkOf, basePosition, forkSubOffset, closedPosition, closedBy,
        Optional.of(seq), state);
  }

  /** The same record in the state {@code newState}. */
  public StreamRecord withState(State newState) {
    return new StreamRecord(id, spaceId, name, generation, feedId, contentType, createdAtMillis, ttlSeconds,
        expiresAtMillis, touchedAtMillis, forkOf, basePosition, forkSubOffset, closedPosition, closedBy, streamSeq,
        newState);
  }
}
