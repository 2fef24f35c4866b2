package dev.feedstore.core.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON object: distinct member names, each with a value. Equal objects have the same members,
 * whatever their order; the canonical text sorts them by code point ({@link JsonWriter}).
 *
 * <p>Thread-safe (immutable).
 */
public final class JsonObject implements JsonValue {
  /** The object without members. */
  public static final JsonObject EMPTY = new JsonObject(Map.of());

  private final Map<String, JsonValue> members;

  private JsonObject(Map<String, JsonValue> members) {
    this.members = members;
  }

  /**
   * An object of a copy of {@code members}, in their iteration order.
   *
   * @throws IllegalArgumentException if a name holds a lone surrogate
   */
  public static JsonObject of(Map<String, ? extends JsonValue> members) {
    Map<String, JsonValue> copy = new LinkedHashMap<>();
    members.forEach((name, value) -> copy.put(JsonString.of(name).value(), java.util.Objects.requireNonNull(value, name)));
    return new JsonObject(Collections.unmodifiableMap(copy));
  }

  /**
   * An object over a map nobody else holds (the reader's): a small one keeps its members in arrays
   * ({@link ObjectMembers}).
   */
  static JsonObject owning(LinkedHashMap<String, JsonValue> members) {
    return new JsonObject(members.size() <= ObjectMembers.MOST ? new ObjectMembers(members)
        : Collections.unmodifiableMap(members));
  }

  /** The members, unmodifiable, in the order they were read or given. */
  public Map<String, JsonValue> members() {
    return members;
  }

  /** The value of member {@code name}, or {@code null} when there is none. */
  public JsonValue get(String name) {
    return members.get(name);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonObject that && members.equals(that.members);
  }

  @Override
  public int hashCode() {
    return members.hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}
