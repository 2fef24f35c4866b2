package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The parts of a version's content a row carries: an object from each pointer's text to the value
 * it resolves to, pointers that resolve to nothing left out. At least one pointer; sorted by code
 * point and each once. Thread-safe (immutable).
 */
public record Projection(List<JsonPointer> pointers) {
  /**
   * @throws InvalidQueryException (clause {@code projection}) if there is no pointer
   */
  public Projection {
    if (pointers.isEmpty()) {
      throw new InvalidQueryException("projection",
          "must name at least one pointer (leave the projection out to keep the whole content)");
    }
    pointers = List.copyOf(new TreeSet<>(pointers));
  }

  /**
   * The projection of the pointers written as {@code pointers} (e.g. {@code "/title"}).
   *
   * @throws IllegalArgumentException if a text is not a JSON pointer
   * @throws InvalidQueryException (clause {@code projection}) if there is no pointer
   */
  public static Projection of(String... pointers) {
    return new Projection(java.util.Arrays.stream(pointers).map(JsonPointer::parse).toList());
  }

  /** The projection of {@code content}: an object of the pointers that resolve, to their values. */
  public JsonObject project(JsonValue content) {
    Map<String, JsonValue> members = new LinkedHashMap<>();
    for (JsonPointer pointer : pointers) {
      JsonValue value = pointer.resolve(content);
      if (value != null) {
        members.put(pointer.toString(), value);
      }
    }
    return JsonObject.of(members);
  }
}
