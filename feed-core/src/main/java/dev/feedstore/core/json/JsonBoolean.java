package dev.feedstore.core.json;

/** {@code true} or {@code false}; never equal to a number or a string. */
public enum JsonBoolean implements JsonValue {
  /** The JSON {@code false}. */
  FALSE,
  /** The JSON {@code true}. */
  TRUE;

  /** {@link #TRUE} or {@link #FALSE}, as {@code value} is. */
  public static JsonBoolean of(boolean value) {
    return value ? TRUE : FALSE;
  }

  /** The Java {@code boolean} of this value. */
  public boolean value() {
    return this == TRUE;
  }

  @Override
  public String toString() {
    return value() ? "true" : "false";
  }
}
