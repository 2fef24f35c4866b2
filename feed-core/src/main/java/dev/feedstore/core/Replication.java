package dev.feedstore.core;

import java.time.Instant;
import java.util.Objects;

/**
 * How a replica replicates one feed. {@link #NONE} (the default) keeps the feed local: never pushed,
 * never pulled. {@link From} replicates {@code [from, ∞)}: {@code from(Position.NONE)} is the full
 * history. {@link #LATEST} replicates the live tail only: it becomes {@code from(max + 1)} where
 * {@code max} is the authority's highest position at the next contact. {@link #since} replicates the
 * blocks the authority received at or after a time: at the next contact the authority resolves the
 * time to a position, and the policy becomes {@code from} that position, kept from then on like any
 * other. Replicating history without new data is not offered. Every policy is an immutable value.
 */
public sealed interface Replication
    permits Replication.None, Replication.From, Replication.Latest, Replication.Since {

  /** Local only: the default of a feed. */
  None NONE = new None();
  /** The live tail only, from the authority's highest position at the next contact on. */
  Latest LATEST = new Latest();

  /** The whole history of the feed, then everything new. */
  static From fullHistory() {
    return new From(Position.NONE);
  }

  /** Blocks at {@code from} and after. */
  static From from(Position from) {
    return new From(from);
  }

  /**
   * The blocks the authority received at or after {@code time} (its clock, {@link
   * Block#receivedAt()}), then everything new. A time before the authority's retained history
   * starts at its floor.
   *
   * @throws InvalidValueException if {@code time} is before 1970-01-01T00:00:00Z
   */
  static Since since(Instant time) {
    Objects.requireNonNull(time, "time");
    if (time.isBefore(Instant.EPOCH)) {
      throw new InvalidValueException("since", "must be at or after 1970-01-01T00:00:00Z", time);
    }
    return new Since(time.toEpochMilli());
  }

  /** Local only. */
  record None() implements Replication {}

  /** Blocks at position {@code from} and after ({@link Position#NONE}: everything). */
  record From(Position from) implements Replication {
    /**
     * Blocks at {@code from} and after.
     *
     * @throws NullPointerException if {@code from} is null
     */
    public From {
      Objects.requireNonNull(from, "from");
    }

    /** True when a block at {@code position} falls in the replicated range. */
    public boolean includes(Position position) {
      return position.compareTo(from) >= 0;
    }
  }

  /** The live tail: from the authority's next position at the time of the next contact. */
  record Latest() implements Replication {}

  /**
   * The blocks received at or after a time, until the authority resolves it to a position.
   *
   * @param epochMillis the time, in Unix milliseconds (>= 0)
   */
  record Since(long epochMillis) implements Replication {
    /**
     * The blocks received at or after {@code epochMillis}.
     *
     * @throws InvalidValueException naming {@code since} if {@code epochMillis} is negative
     */
    public Since {
      if (epochMillis < 0) {
        throw new InvalidValueException("since", "must be >= 0 (Unix milliseconds)", epochMillis);
      }
    }
  }
}
