package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonBoolean;
import dev.feedstore.core.json.JsonNull;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * The metadata of a version's block, each with a JSON type: ids and the namespace are strings (the
 * namespace is {@code null} for a feed without one), times are integers, {@code positioned} is a
 * boolean. Each field takes the operators of its type ({@link Predicate}).
 */
public enum MetadataField implements Field {
  /** The feed id, a ULID in upper case. */
  FEED("feed", Type.STRING),
  /** The feed's namespace, or {@code null}. */
  NAMESPACE("namespace", Type.NULLABLE_STRING),
  /** The author's actor id. */
  ACTOR("actor", Type.STRING),
  /** The author's clock when writing, Unix milliseconds. */
  TIMESTAMP("timestamp", Type.INTEGER),
  /**
   * The authority's receive time, Unix milliseconds; for a pending version the time it was
   * evaluated at ({@link ParsedBlock#evaluatedAt()}); none for a positioned block whose receive
   * time the store does not know.
   */
  RECEIVED_AT("receivedAt", Type.INTEGER),
  /** Whether the authority has positioned the block. */
  POSITIONED("positioned", Type.BOOLEAN);

  /** The JSON types metadata fields have. */
  public enum Type {
    /** Always a string. */
    STRING,
    /** A string or {@code null}. */
    NULLABLE_STRING,
    /** An integer (times are Unix milliseconds). */
    INTEGER,
    /** {@code true} or {@code false}. */
    BOOLEAN;

    /** True when a literal of this JSON value can equal a value of this type. */
    boolean admits(JsonValue literal) {
      return switch (this) {
        case STRING -> literal instanceof JsonString;
        case NULLABLE_STRING -> literal instanceof JsonString || literal == JsonNull.NULL;
        case INTEGER -> literal instanceof JsonNumber;
        case BOOLEAN -> literal instanceof JsonBoolean;
      };
    }

    String describe() {
      return switch (this) {
        case STRING -> "a string";
        case NULLABLE_STRING -> "a string or null";
        case INTEGER -> "an integer";
        case BOOLEAN -> "a boolean";
      };
    }
  }

  private final String fieldName;
  private final Type type;

  MetadataField(String fieldName, Type type) {
    this.fieldName = fieldName;
    this.type = type;
  }

  /** The field called {@code name} (case-sensitive), if any. */
  public static Optional<MetadataField> named(String name) {
    for (MetadataField field : values()) {
      if (field.fieldName.equals(name)) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }

  static String names() {
    return Arrays.stream(values()).map(MetadataField::fieldName).collect(Collectors.joining(", "));
  }

  @Override
  public String fieldName() {
    return fieldName;
  }

  /** The JSON type of the field's values, which decides the operators it takes. */
  public Type type() {
    return type;
  }

  @Override
  public boolean readableIn(ParsedBlock version) {
    return true;
  }

  @Override
  public JsonValue valueIn(ParsedBlock version) {
    return switch (this) {
      case FEED -> JsonString.of(version.block().feedId().value());
      case NAMESPACE -> version.namespace().<JsonValue>map(n -> JsonString.of(n.value())).orElse(JsonNull.NULL);
      case ACTOR -> JsonString.of(version.block().actorId().value());
      case TIMESTAMP -> JsonNumber.of(version.block().timestamp());
      case RECEIVED_AT -> {
        OptionalLong receivedAt = version.receivedAt();
        yield receivedAt.isPresent() ? JsonNumber.of(receivedAt.getAsLong()) : null;
      }
      case POSITIONED -> JsonBoolean.of(version.block().isPositioned());
    };
  }

  @Override
  public String toString() {
    return fieldName;
  }
}
