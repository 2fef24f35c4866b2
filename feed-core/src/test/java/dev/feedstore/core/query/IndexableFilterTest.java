package dev.feedstore.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.json.JsonValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which predicate of a filter an index of queries by value finds its versions by ({@link
 * Filter#indexable}), and the values a version's field must equal one of ({@link
 * Predicate#equalValues}): {@code eq} and {@code in} of strings, numbers, booleans and {@code null}.
 */
class IndexableFilterTest {
  @Test
  void eqAndInOfScalarsGiveTheirValues() {
    assertEquals(Optional.of(List.of(JsonValue.of("ana"))), predicate("/a = \"ana\"").equalValues());
    assertEquals(Optional.of(List.of(JsonValue.of(7))), predicate("/a = 7.0").equalValues(), "normalised as eq compares");
    assertEquals(Optional.of(List.of(JsonValue.of("b"), JsonValue.of(1))),
        predicate("/a in [1, \"b\", 1]").equalValues(), "in the order of their canonical text, each once");
    assertEquals(Optional.of(List.of()), predicate("/a in []").equalValues(), "nothing passes it");
    assertEquals(Optional.of(List.of(JsonValue.of(null))), predicate("namespace = null").equalValues());
    assertEquals(Optional.of(List.of(JsonValue.of(true))), predicate("positioned = true").equalValues());
  }

  @Test
  void otherTestsGiveNone() {
    for (String other : List.of("/a != 1", "/a < 3", "/a exists", "/a not exists", "/a contains \"x\"",
        "/a = {\"x\":1}", "/a = [1]", "/a in [1, [2]]")) {
      assertEquals(Optional.empty(), predicate(other).equalValues(), other);
    }
  }

  @Test
  void theIndexablePredicateIsTheOneWithFewestValues() {
    assertEquals("/b = 2", filter("/a in [1, 2] and /b = 2 and /c < 4").indexable().orElseThrow().toString());
    assertEquals("/a in [1,2]", filter("/a in [1, 2] and /c < 4").indexable().orElseThrow().toString());
    assertEquals(Optional.empty(), filter("/a != 1 and /c < 4").indexable());
    assertEquals(Optional.empty(), Filter.ALL.indexable());
  }

  private static Predicate predicate(String text) {
    return filter(text).predicates().get(0);
  }

  private static Filter filter(String condition) {
    return LiveQuery.parse("space:w where " + condition).filter();
  }
}
