package dev.feedstore.core.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value. Values are immutable and compare structurally: objects by their members (in any
 * order), arrays element by element, numbers by their exact decimal value ({@code 7}, {@code 7.0}
 * and {@code 7e0} are equal; {@code -0} is {@code 0}), strings by their code points. Values of
 * different types are never equal ({@code "1"} is not {@code 1}, {@code true} is not {@code 1}).
 *
 * <p>{@code toString()} of every value is its canonical JSON text ({@link JsonWriter}).
 */
public sealed interface JsonValue permits JsonNull, JsonBoolean, JsonNumber, JsonString, JsonArray, JsonObject {

  /**
   * The JSON value of a Java value: {@code null}, a {@link JsonValue}, a {@link String}, a {@link
   * Boolean}, an integral {@link Number} ({@link Integer}, {@link Long}, {@link Short}, {@link
   * Byte}, {@link java.math.BigInteger}), a {@link BigDecimal}, a finite {@link Double} or {@link
   * Float} (by its shortest decimal text), a {@link List} of such values or a {@link Map} from
   * strings to them.
   *
   * @throws IllegalArgumentException naming the value when it is none of these, a non-finite
   *     number, or a string with a lone surrogate
   */
  static JsonValue of(Object value) {
    if (value == null) {
      return JsonNull.NULL;
    }
    if (value instanceof JsonValue json) {
      return json;
    }
    if (value instanceof String text) {
      return JsonString.of(text);
    }
    if (value instanceof Boolean bool) {
      return JsonBoolean.of(bool);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return JsonNumber.of(((Number) value).longValue());
    }
    if (value instanceof java.math.BigInteger integer) {
      return JsonNumber.of(new BigDecimal(integer));
    }
    if (value instanceof BigDecimal decimal) {
      return JsonNumber.of(decimal);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("a JSON number must be finite, was " + value);
      }
      return JsonNumber.of(new BigDecimal(value.toString()));
    }
    if (value instanceof List<?> list) {
      List<JsonValue> elements = new ArrayList<>(list.size());
      for (Object element : list) {
        elements.add(of(element));
      }
      return JsonArray.of(elements);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, JsonValue> members = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String name)) {
          throw new IllegalArgumentException("a JSON member name must be a string, was " + entry.getKey());
        }
        members.put(JsonString.of(name).value(), of(entry.getValue()));
      }
      return JsonObject.of(members);
    }
    throw new IllegalArgumentException("no JSON value for " + value.getClass().getName() + " " + value);
  }

  /** The canonical JSON text of this value. */
  default String toJson() {
    return JsonWriter.canonical(this);
  }
}
