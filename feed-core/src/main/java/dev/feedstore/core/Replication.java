package dev.feedstore.core;

import java.util.Objects;

/**
 * How a replica replicates one feed. {@link #NONE} (the default) keeps the feed local: never pushed,
 * never pulled. {@link From} replicates {@code [from, ∞)}: {@code from(Position.NONE)} is the full
 * history. {@link #LATEST} replicates the live tail only: it becomes {@code from(max + 1)} where
 * {@code max} is the authority's highest position at the next contact. Replicating history without
 * new data is not offered.
 */
public sealed interface Replication permits Replication.None, Replication.From, Replication.Latest {

  None NONE = new None();
  Latest LATEST = new Latest();

  /** The whole history of the feed, then everything new. */
  static From fullHistory() {
    return new From(Position.NONE);
  }

  /** Blocks at {@code from} and after. */
  static From from(Position from) {
    return new From(from);
  }

  /** Local only. */
  record None() implements Replication {}

  /** Blocks at position {@code from} and after ({@link Position#NONE}: everything). */
  record From(Position from) implements Replication {
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
}
