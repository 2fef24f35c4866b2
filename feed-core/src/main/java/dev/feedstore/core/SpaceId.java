package dev.feedstore.core;

/**
 * A space: a set of feeds that share one position sequence. Chosen by the application: 1-128
 * characters of {@code [A-Za-z0-9._:-]}.
 */
public record SpaceId(String value) implements Comparable<SpaceId> {
  /**
   * The space id {@code value}, as given (no case folding).
   *
   * @throws InvalidValueException naming {@code spaceId} if {@code value} is null or not
   *     1-128 characters of {@code [A-Za-z0-9._:-]}
   */
  public SpaceId {
    Text.requireIdentifier("spaceId", value);
  }

  /** The same as the constructor, named like the other ids' factories. */
  public static SpaceId of(String value) {
    return new SpaceId(value);
  }

  /** By {@code value}, character by character (UTF-16 code units, as SQLite's BINARY collation). */
  @Override
  public int compareTo(SpaceId other) {
    return value.compareTo(other.value);
  }

  /** The value itself, as it goes on the wire and into messages. */
  @Override
  public String toString() {
    return value;
  }
}
