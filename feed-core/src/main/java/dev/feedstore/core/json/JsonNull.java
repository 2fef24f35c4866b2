package dev.feedstore.core.json;

/** The JSON {@code null}: a present value, unlike a pointer that resolves to nothing. */
public enum JsonNull implements JsonValue {
  /** The one JSON {@code null}. */
  NULL;

  @Override
  public String toString() {
    return "null";
  }
}
