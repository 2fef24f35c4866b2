package dev.feedstore.core;

/**
 * The author's counter of a block within a feed: a Lamport clock per feed. A new local block gets
 * {@code max(sequence in the feed) + 1}, or {@link #FIRST} in an empty feed (see {@link #after}). Immutable.
 */
public record Sequence(long value) implements Comparable<Sequence> {
  /** The sequence of the first block of a feed. */
  public static final Sequence FIRST = new Sequence(0);

  /**
   * The sequence {@code value}.
   *
   * @throws InvalidValueException naming {@code sequence} if {@code value} is negative
   */
  public Sequence {
    if (value < 0) {
      throw new InvalidValueException("sequence", "must be >= 0", value);
    }
  }

  /** The same as the constructor. */
  public static Sequence of(long value) {
    return new Sequence(value);
  }

  /**
   * The sequence rule: the sequence of a new block in a feed whose highest sequence is {@code max},
   * or {@link #FIRST} when the feed is empty ({@code max == null}).
   */
  public static Sequence after(Sequence max) {
    return max == null ? FIRST : max.next();
  }

  /**
   * The sequence after this one.
   *
   * @throws InvalidValueException naming {@code sequence} if this is {@code Long.MAX_VALUE}
   */
  public Sequence next() {
    if (value == Long.MAX_VALUE) {
      throw new InvalidValueException("sequence", "must be < " + Long.MAX_VALUE + " to have a successor", value);
    }
    return new Sequence(value + 1);
  }

  @Override
  public int compareTo(Sequence other) {
    return Long.compare(value, other.value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
