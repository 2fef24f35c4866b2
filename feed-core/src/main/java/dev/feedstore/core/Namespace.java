package dev.feedstore.core;

/**
 * An application-defined label of a feed (for example {@code data} or {@code trace}), set when the
 * feed is first created and used to select feeds. 1-128 characters of {@code [A-Za-z0-9._:-]}.
 */
public record Namespace(String value) implements Comparable<Namespace> {
  /**
   * The namespace {@code value}, as given (no case folding).
   *
   * @throws InvalidValueException naming {@code namespace} if {@code value} is null or not
   *     1-128 characters of {@code [A-Za-z0-9._:-]}
   */
  public Namespace {
    Text.requireIdentifier("namespace", value);
  }

  /** The same as the constructor, named like the other ids' factories. */
  public static Namespace of(String value) {
    return new Namespace(value);
  }

  /** By {@code value}, character by character (UTF-16 code units, as SQLite's BINARY collation). */
  @Override
  public int compareTo(Namespace other) {
    return value.compareTo(other.value);
  }

  /** The value itself, as it goes on the wire and into messages. */
  @Override
  public String toString() {
    return value;
  }
}
