package dev.feedstore.core.query;

import dev.feedstore.core.json.JsonArray;
import dev.feedstore.core.json.JsonBoolean;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.util.Optional;

/**
 * How a predicate compares a field's value with its literal. A value that is missing (a pointer
 * that resolves to nothing) matches only {@code exists false}.
 *
 * <ul>
 *   <li>{@code eq}, {@code ne}, {@code in}: structural equality of JSON values; values of different
 *       types are never equal, and {@code ne} needs a present value;
 *   <li>{@code lt}, {@code le}, {@code gt}, {@code ge}: numbers by exact value, strings by code
 *       point; never across types;
 *   <li>{@code exists}: whether the pointer resolves ({@code null} exists);
 *   <li>{@code contains}: a string holding the literal string (case-sensitive), or an array with an
 *       element {@code eq} the literal.
 * </ul>
 */
public enum Operator {
  /** Equal to the literal. */
  EQ("eq", "="),
  /** Present and not equal to the literal. */
  NE("ne", "!="),
  /** Equal to one of the literal array's elements. */
  IN("in", "in"),
  /** Less than the literal, of the same type. */
  LT("lt", "<"),
  /** Less than or equal to the literal, of the same type. */
  LE("le", "<="),
  /** Greater than the literal, of the same type. */
  GT("gt", ">"),
  /** Greater than or equal to the literal, of the same type. */
  GE("ge", ">="),
  /** Whether the field is present, as the literal {@code true} or {@code false} asks. */
  EXISTS("exists", "exists"),
  /** A string holding the literal string, or an array with an element equal to the literal. */
  CONTAINS("contains", "contains");

  private final String jsonName;
  private final String symbol;

  Operator(String jsonName, String symbol) {
    this.jsonName = jsonName;
    this.symbol = symbol;
  }

  /** The operator named {@code name} in the JSON form ({@code eq}, {@code lt}, ...), if any. */
  public static Optional<Operator> named(String name) {
    for (Operator operator : values()) {
      if (operator.jsonName.equals(name)) {
        return Optional.of(operator);
      }
    }
    return Optional.empty();
  }

  /** The name in the JSON form: {@code eq}, {@code ne}, {@code in}, {@code lt}, ... */
  public String jsonName() {
    return jsonName;
  }

  /** How the text form writes it: {@code =}, {@code !=}, {@code in}, {@code <}, ... */
  public String symbol() {
    return symbol;
  }

  /** True for {@code lt}, {@code le}, {@code gt}, {@code ge}. */
  public boolean isOrdering() {
    return this == LT || this == LE || this == GT || this == GE;
  }

  /**
   * Whether {@code value} (null when missing) matches {@code literal}, which {@link Predicate} has
   * checked to suit this operator.
   */
  boolean test(JsonValue value, JsonValue literal) {
    if (this == EXISTS) {
      return (value != null) == ((JsonBoolean) literal).value();
    }
    if (value == null) {
      return false;
    }
    return switch (this) {
      case EQ -> value.equals(literal);
      case NE -> !value.equals(literal);
      case IN -> ((JsonArray) literal).elements().contains(value);
      case LT, LE, GT, GE -> ordered(value, literal);
      case CONTAINS -> contains(value, literal);
      case EXISTS -> throw new AssertionError("handled above");
    };
  }

  private boolean ordered(JsonValue value, JsonValue literal) {
    int comparison;
    if (value instanceof JsonNumber number && literal instanceof JsonNumber bound) {
      comparison = number.compareTo(bound);
    } else if (value instanceof JsonString string && literal instanceof JsonString bound) {
      comparison = string.compareTo(bound);
    } else {
      return false;
    }
    return switch (this) {
      case LT -> comparison < 0;
      case LE -> comparison <= 0;
      case GT -> comparison > 0;
      default -> comparison >= 0;
    };
  }

  private static boolean contains(JsonValue value, JsonValue literal) {
    if (value instanceof JsonString string) {
      return literal instanceof JsonString part && string.value().contains(part.value());
    }
    return value instanceof JsonArray array && array.elements().contains(literal);
  }

  @Override
  public String toString() {
    return jsonName;
  }
}
