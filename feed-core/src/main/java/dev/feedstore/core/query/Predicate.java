package dev.feedstore.core.query;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.json.CodePointOrder;
import dev.feedstore.core.json.JsonArray;
import dev.feedstore.core.json.JsonBoolean;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.json.JsonWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One test of a version: a field, an operator and a literal, checked and normalised when made.
 *
 * <p>A pointer takes every operator: {@code eq}, {@code ne} and {@code contains} any JSON literal,
 * {@code in} an array of them, {@code lt}, {@code le}, {@code gt}, {@code ge} a number or a string,
 * {@code exists} a boolean. A metadata field takes the operators of its type, with literals of its
 * type: strings {@code eq ne in lt le gt ge contains}, integers {@code eq ne in lt le gt ge},
 * booleans {@code eq ne in}; {@code exists} is for pointers only (metadata is always there). A
 * block that is not JSON matches no predicate on a pointer, {@code exists false} included.
 *
 * <p>Normalised: the elements of an {@code in} list are sorted by their canonical JSON and appear
 * once; feed ids are in upper case. Thread-safe (immutable).
 */
public record Predicate(Field field, Operator operator, JsonValue literal) {

  /**
   * @throws InvalidQueryException (clause {@code predicate}) if the operator does not suit the field
   *     or the literal does not suit the operator
   */
  public Predicate {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(literal, "literal");
    literal = checked(field, operator, literal);
  }

  /** Whether {@code version} passes this test. */
  public boolean matches(ParsedBlock version) {
    return field.readableIn(version) && operator.test(field.valueIn(version), literal);
  }

  /**
   * The values one of which the field of a version that passes this test equals, when the test is
   * {@code eq} (its literal) or {@code in} (the list's elements) and each of them is a string, a
   * number, a boolean or {@code null}; empty for any other test. A version whose field's value is
   * none of them fails the test, so an index of queries by these values finds every query the
   * version can pass.
   */
  public Optional<List<JsonValue>> equalValues() {
    List<JsonValue> values = operator == Operator.EQ ? List.of(literal)
        : operator == Operator.IN ? ((JsonArray) literal).elements() : null;
    if (values == null) {
      return Optional.empty();
    }
    for (JsonValue value : values) {
      if (value instanceof JsonArray || value instanceof JsonObject) {
        return Optional.empty();
      }
    }
    return Optional.of(values);
  }

  /** The JSON form: {@code {"field":..., "op":..., "value":...}}. */
  public JsonObject toJson() {
    return JsonObject.of(Map.of("field", JsonString.of(field.fieldName()), "op", JsonString.of(operator.jsonName()),
        "value", literal));
  }

  /** The text form, e.g. {@code /assignee = "ana"} or {@code /done not exists}. */
  @Override
  public String toString() {
    return QueryText.predicate(this);
  }

  private static JsonValue checked(Field field, Operator operator, JsonValue literal) {
    String clause = field.fieldName() + " " + operator.jsonName() + " " + literal;
    if (operator == Operator.EXISTS) {
      if (field instanceof MetadataField) {
        throw refused(clause, "exists applies to pointers only: metadata field " + field.fieldName()
            + " is always present");
      }
      if (!(literal instanceof JsonBoolean)) {
        throw refused(clause, "exists takes true or false, was " + literal);
      }
      return literal;
    }
    if (operator == Operator.IN) {
      if (!(literal instanceof JsonArray list)) {
        throw refused(clause, "in takes an array of values, was " + literal);
      }
      List<JsonValue> elements = new ArrayList<>();
      for (JsonValue element : list.elements()) {
        JsonValue checked = checkedElement(field, Operator.IN, element, clause);
        if (!elements.contains(checked)) {
          elements.add(checked);
        }
      }
      elements.sort(Comparator.comparing(JsonWriter::canonical, CodePointOrder.COMPARATOR));
      return JsonArray.of(elements);
    }
    if (operator.isOrdering() && !(literal instanceof JsonNumber || literal instanceof JsonString)) {
      throw refused(clause, operator.jsonName() + " takes a number or a string, was " + literal);
    }
    return checkedElement(field, operator, literal, clause);
  }

  /** A literal (or an element of an {@code in} list) checked against a metadata field's type. */
  private static JsonValue checkedElement(Field field, Operator operator, JsonValue literal, String clause) {
    if (!(field instanceof MetadataField metadata)) {
      return literal;
    }
    MetadataField.Type type = metadata.type();
    if (type == MetadataField.Type.BOOLEAN && (operator.isOrdering() || operator == Operator.CONTAINS)) {
      throw refused(clause, operator.jsonName() + " does not apply to " + field.fieldName() + ", a boolean");
    }
    if (type == MetadataField.Type.INTEGER && operator == Operator.CONTAINS) {
      throw refused(clause, "contains does not apply to " + field.fieldName() + ", an integer");
    }
    if (!type.admits(literal) || (operator == Operator.CONTAINS && !(literal instanceof JsonString))) {
      throw refused(clause, field.fieldName() + " is " + type.describe() + ", so " + operator.jsonName()
          + " takes " + (operator == Operator.CONTAINS ? "a string" : type.describe()) + ", was " + literal);
    }
    if (metadata == MetadataField.FEED && (operator == Operator.EQ || operator == Operator.NE || operator == Operator.IN)) {
      try {
        return JsonString.of(FeedId.of(((JsonString) literal).value()).value());
      } catch (InvalidValueException e) {
        throw refused(clause, e.getMessage());
      }
    }
    return literal;
  }

  private static InvalidQueryException refused(String clause, String problem) {
    return new InvalidQueryException("predicate", clause, problem);
  }
}
