package dev.feedstore.core;

/**
 * A place in the order of a space, assigned only by the position authority: a counter per space
 * that starts at 1 and only grows. {@link #NONE} (0) means "no position yet" on a block and "before
 * everything" as a cursor, so a cursor of {@code NONE} reads from the start. Immutable.
 */
public record Position(long value) implements Comparable<Position> {
  /** No position: an unpositioned block, or the cursor before the first block. */
  public static final Position NONE = new Position(0);

  /** The first position the authority hands out in a space. */
  public static final Position FIRST = new Position(1);

  /**
   * The position {@code value}.
   *
   * @throws InvalidValueException naming {@code position} if {@code value} is negative
   */
  public Position {
    if (value < 0) {
      throw new InvalidValueException("position", "must be >= 0 (0 means none)", value);
    }
  }

  /** The same as the constructor, but {@link #NONE} itself for 0. */
  public static Position of(long value) {
    return value == 0 ? NONE : new Position(value);
  }

  /** True for positions handed out by the authority, false for {@link #NONE}. */
  public boolean isAssigned() {
    return value > 0;
  }

  /** The position after this one. */
  public Position next() {
    return new Position(value + 1);
  }

  /** Whether this position comes later in the space's order than {@code other}. */
  public boolean isAfter(Position other) {
    return value > other.value;
  }

  @Override
  public int compareTo(Position other) {
    return Long.compare(value, other.value);
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
