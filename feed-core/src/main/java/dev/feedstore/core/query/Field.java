package dev.feedstore.core.query;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonValue;

/**
 * What a predicate or an order reads of a version: a metadata field of its block ({@link
 * MetadataField}) or a JSON pointer into its content ({@link PointerField}). Written as the
 * metadata field's name ({@code receivedAt}) or as the pointer ({@code /createdAt}, or {@code ""}
 * for the whole content): a name that is empty or starts with {@code /} is a pointer. Every field
 * is immutable, so thread-safe.
 */
public sealed interface Field permits MetadataField, PointerField {

  /**
   * The field written {@code name}.
   *
   * @throws InvalidValueException (field {@code field}) if it is neither a pointer nor a metadata
   *     field's name, or a malformed pointer
   */
  static Field named(String name) {
    if (name == null) {
      throw new InvalidValueException("field", "is required", null);
    }
    if (name.isEmpty() || name.charAt(0) == '/') {
      return new PointerField(JsonPointer.parse(name));
    }
    return MetadataField.named(name).orElseThrow(() -> new InvalidValueException("field",
        "must be a JSON pointer ('' or starting with '/') or one of " + MetadataField.names(), name));
  }

  /** The field as written in the query's forms. */
  String fieldName();

  /** False when the field cannot be read in {@code version} at all: a pointer into a block that is not JSON. */
  boolean readableIn(ParsedBlock version);

  /**
   * The field's value in {@code version}, or {@code null} when it has none (a pointer that
   * resolves to nothing, a receive time not known).
   */
  JsonValue valueIn(ParsedBlock version);
}
