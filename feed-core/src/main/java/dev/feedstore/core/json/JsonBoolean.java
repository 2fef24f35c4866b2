package dev.feedstore.core.json;

/** {@code true} or {@code false}; never equal to a number or a string. */
public enum JsonBoolean implements JsonValue {
  FALSE,
  TRUE;

  public static JsonBoolean of(boolean value) {
    return value ? TRUE : FALSE;
  }

  public boolean value() {
    return this == TRUE;
  }

  @Override
  public String toString() {
    return value() ? "true" : "false";
  }
}
