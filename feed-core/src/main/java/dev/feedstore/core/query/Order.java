package dev.feedstore.core.query;

import java.util.Objects;

/**
 * What a result is ordered by: a field and a direction. Ascending puts numbers (by value) before
 * strings (by code point); descending reverses both (strings first, from the greatest); missing
 * values and values of other types go last either way; ties go by document key ascending ({@link
 * RowOrder}). Thread-safe (immutable).
 */
public record Order(Field field, Direction direction) {

  /** Ascending or descending. */
  public enum Direction {
    /** Smallest first: numbers, then strings. */
    ASC,
    /** Greatest first: strings, then numbers. */
    DESC;

    /** {@code asc} or {@code desc}. */
    public String word() {
      return this == ASC ? "asc" : "desc";
    }
  }

  /**
   * @throws InvalidQueryException (clause {@code order}) for {@code positioned}, whose values (booleans)
   *     have no order
   */
  public Order {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(direction, "direction");
    if (field == MetadataField.POSITIONED) {
      throw new InvalidQueryException("order", "positioned is a boolean, and booleans have no order");
    }
  }

  @Override
  public String toString() {
    return field.fieldName() + " " + direction.word();
  }
}
