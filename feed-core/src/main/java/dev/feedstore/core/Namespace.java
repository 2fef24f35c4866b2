package dev.feedstore.core;

/**
 * An application-defined label of a feed (for example {@code data} or {@code trace}), set when the
 * feed is first created and used to select feeds. 1-128 characters of {@code [A-Za-z0-9._:-]}.
 */
public record Namespace(String value) implements Comparable<Namespace> {
  public Namespace {
    Text.requireIdentifier("namespace", value);
  }

  public static Namespace of(String value) {
    return new Namespace(value);
  }

  @Override
  public int compareTo(Namespace other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
