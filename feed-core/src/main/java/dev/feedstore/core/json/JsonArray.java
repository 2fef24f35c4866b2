package dev.feedstore.core.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A JSON array. Equal arrays hold equal elements in the same order.
 *
 * <p>Thread-safe (immutable).
 */
public final class JsonArray implements JsonValue {
  /** The empty array. */
  public static final JsonArray EMPTY = new JsonArray(List.of());

  private final List<JsonValue> elements;

  private JsonArray(List<JsonValue> elements) {
    this.elements = elements;
  }

  /** An array of a copy of {@code elements} (none of them null). */
  public static JsonArray of(List<? extends JsonValue> elements) {
    return new JsonArray(List.copyOf(elements));
  }

  /** An array over a list nobody else holds (the reader's). */
  static JsonArray owning(ArrayList<JsonValue> elements) {
    return new JsonArray(Collections.unmodifiableList(elements));
  }

  /** The elements, unmodifiable. */
  public List<JsonValue> elements() {
    return elements;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonArray that && elements.equals(that.elements);
  }

  @Override
  public int hashCode() {
    return elements.hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}
