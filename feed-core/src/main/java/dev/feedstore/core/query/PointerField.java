package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonValue;
import java.util.Objects;
import java.util.Optional;

/**
 * A JSON pointer into a version's content; a block that is not JSON has no content to read.
 * Thread-safe (immutable).
 */
public record PointerField(JsonPointer pointer) implements Field {
  /**
   * The field {@code pointer} selects in a version's content.
   *
   * @throws NullPointerException if {@code pointer} is null
   */
  public PointerField {
    Objects.requireNonNull(pointer, "pointer");
  }

  @Override
  public String fieldName() {
    return pointer.toString();
  }

  @Override
  public boolean readableIn(ParsedBlock version) {
    return version.json().isPresent();
  }

  @Override
  public JsonValue valueIn(ParsedBlock version) {
    Optional<JsonValue> json = version.json();
    return json.isPresent() ? pointer.resolve(json.get()) : null;
  }

  @Override
  public String toString() {
    return fieldName();
  }
}
