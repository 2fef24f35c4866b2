package dev.feedstore.core;

/**
 * The author of a block: a public key or any stable id of the writer. 1-128 characters of printable
 * ASCII without spaces, so that the order of actor ids is the same in Java and in SQLite (both
 * compare them by code unit).
 */
public record ActorId(String value) implements Comparable<ActorId> {
  public ActorId {
    Text.requirePrintable("actorId", value);
  }

  public static ActorId of(String value) {
    return new ActorId(value);
  }

  @Override
  public int compareTo(ActorId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
