package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonValue;
import java.util.Objects;
import java.util.Optional;

/**
 * One document of a result: its key, the version that is its current one, the value the result is
 * ordered by (empty without an order, or when the version has none), and its content: the
 * projection ({@link Projection#project}), or the whole value without a projection; empty when the
 * version is not JSON.
 *
 * <p>Two rows are equal when all of this is: a row whose version, order value or content changed is
 * an update, and a row that only moved in the order is not. Thread-safe (immutable).
 */
public record Row(DocumentId id, RowVersion version, Optional<JsonValue> orderValue, Optional<JsonValue> content) {
  /**
   * A row with every part given.
   *
   * @throws NullPointerException if a part is null
   */
  public Row {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(orderValue, "orderValue");
    Objects.requireNonNull(content, "content");
  }

  @Override
  public String toString() {
    return "Row[" + id + " " + version + orderValue.map(v -> " order " + v).orElse("")
        + " " + content.map(JsonValue::toString).orElse("not JSON") + "]";
  }
}
