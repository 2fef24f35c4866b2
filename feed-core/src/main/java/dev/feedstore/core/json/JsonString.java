package dev.feedstore.core.json;

/**
 * A JSON string: a sequence of Unicode code points (never a lone surrogate). Equal strings have the
 * same code points; {@link #compareTo} orders them by code point, not by UTF-16 unit.
 *
 * <p>Thread-safe (immutable).
 */
public final class JsonString implements JsonValue, Comparable<JsonString> {
  private final String value;

  private JsonString(String value) {
    this.value = value;
  }

  /**
   * The string {@code value}.
   *
   * @throws IllegalArgumentException if {@code value} holds a lone surrogate (it has no code point)
   */
  public static JsonString of(String value) {
    int lone = CodePointOrder.loneSurrogateAt(value);
    if (lone >= 0) {
      throw new IllegalArgumentException("a JSON string must not hold a lone surrogate, found one at index " + lone);
    }
    return new JsonString(value);
  }

  /** A string the reader decoded (and so checked) itself. */
  static JsonString decoded(String value) {
    return new JsonString(value);
  }

  /** The Java string: never null, never with a lone surrogate. */
  public String value() {
    return value;
  }

  @Override
  public int compareTo(JsonString other) {
    return CodePointOrder.compare(value, other.value);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonString that && value.equals(that.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}
