package dev.feedstore.core;

/**
 * A space: a set of feeds that share one position sequence. Chosen by the application: 1-128
 * characters of {@code [A-Za-z0-9._:-]}.
 */
public record SpaceId(String value) implements Comparable<SpaceId> {
  public SpaceId {
    Text.requireIdentifier("spaceId", value);
  }

  public static SpaceId of(String value) {
    return new SpaceId(value);
  }

  @Override
  public int compareTo(SpaceId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
