package dev.feedstore.core;

/**
 * The author of a block: a public key or any stable id of the writer. 1-128 characters of printable
 * ASCII without spaces, so that the order of actor ids is the same in Java and in SQLite (both
 * compare them by code unit).
 */
public record ActorId(String value) implements Comparable<ActorId> {
  /**
   * The actor id {@code value}, as given (no case folding).
   *
   * @throws InvalidValueException naming {@code actorId} if {@code value} is null or not
   *     1-128 characters of printable ASCII without spaces
   */
  public ActorId {
    Text.requirePrintable("actorId", value);
  }

  /** The same as the constructor, named like the other ids' factories. */
  public static ActorId of(String value) {
    return new ActorId(value);
  }

  /** By {@code value}, character by character (UTF-16 code units, as SQLite's BINARY collation). */
  @Override
  public int compareTo(ActorId other) {
    return value.compareTo(other.value);
  }

  /** The value itself, as it goes on the wire and into messages. */
  @Override
  public String toString() {
    return value;
  }
}
