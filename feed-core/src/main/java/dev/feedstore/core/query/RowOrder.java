package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.util.Comparator;
import java.util.Optional;

/**
 * The order of a result's rows: by order value as {@link Order} states (numbers, then strings, then
 * the rest ascending; strings, then numbers, then the rest descending), then by document key
 * ascending ({@link DocumentId}). Without an order, by document key. A total order: no two rows of
 * one result share a key. Thread-safe (immutable).
 */
public final class RowOrder implements Comparator<Row> {
  private final boolean descending;

  private RowOrder(boolean descending) {
    this.descending = descending;
  }

  /** The order of rows of a query with the given order clause. */
  public static RowOrder of(Optional<Order> order) {
    return new RowOrder(order.map(o -> o.direction() == Order.Direction.DESC).orElse(false));
  }

  @Override
  public int compare(Row a, Row b) {
    JsonValue x = a.orderValue().orElse(null);
    JsonValue y = b.orderValue().orElse(null);
    int byGroup = Integer.compare(group(x), group(y));
    if (byGroup != 0) {
      return byGroup;
    }
    int byValue = 0;
    if (x instanceof JsonNumber m && y instanceof JsonNumber n) {
      byValue = m.compareTo(n);
    } else if (x instanceof JsonString s && y instanceof JsonString t) {
      byValue = s.compareTo(t);
    }
    if (byValue != 0) {
      return descending ? -byValue : byValue;
    }
    return a.id().compareTo(b.id());
  }

  /** 0 and 1 for numbers and strings (in the direction's order), 2 for everything else. */
  private int group(JsonValue value) {
    if (value instanceof JsonNumber) {
      return descending ? 1 : 0;
    }
    if (value instanceof JsonString) {
      return descending ? 0 : 1;
    }
    return 2;
  }
}
