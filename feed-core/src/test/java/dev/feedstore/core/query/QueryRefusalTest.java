package dev.feedstore.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.SpaceId;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A query that cannot be evaluated is refused when it is made, naming the clause. */
class QueryRefusalTest {

  static Stream<Arguments> refusedTexts() {
    return Stream.of(
        refused("space:w where /a < true", "filter[0]", "lt takes a number or a string, was true"),
        refused("space:w where /a < null", "filter[0]", "lt takes a number or a string"),
        refused("space:w where /a >= [1]", "filter[0]", "ge takes a number or a string"),
        refused("space:w where /a = 1 and /b ~ 2", "filter[1]", "an operator expected"),
        refused("space:w where /a =! 2", "filter[0]", "a JSON value expected"),
        refused("space:w where /a like \"x\"", "filter[0]", "an operator expected"),
        refused("space:w where /a = NaN", "filter[0]", "a JSON value expected"),
        refused("space:w where /a = {\"k\":1,\"k\":2}", "filter[0]", "a second member named \"k\""),
        refused("space:w where /a~2 = 1", "filter[0]", "must be a JSON pointer"),
        refused("space:w where \"a\" = 1", "filter[0]", "a quoted field is a JSON pointer"),
        refused("space:w where size = 1", "filter[0]", "must be a JSON pointer ('' or starting with '/') or one of feed,"
            + " namespace, actor, timestamp, receivedAt, positioned"),
        refused("space:w where /a in 5", "filter[0]", "in takes an array of values, was 5"),
        refused("space:w where receivedAt exists", "filter[0]", "exists applies to pointers only"),
        refused("space:w where positioned < true", "filter[0]", "lt takes a number or a string"),
        refused("space:w where positioned contains \"t\"", "filter[0]", "contains does not apply to positioned"),
        refused("space:w where timestamp contains \"1\"", "filter[0]", "contains does not apply to timestamp"),
        refused("space:w where timestamp = \"1\"", "filter[0]", "timestamp is an integer, so eq takes an integer"),
        refused("space:w where namespace = 3", "filter[0]", "namespace is a string or null"),
        refused("space:w where actor in [\"a\", 1]", "filter[0]", "actor is a string"),
        refused("space:w where feed = \"nope\"", "filter[0]", "must be a ULID"),
        refused("space:w where feed contains 1", "filter[0]", "contains takes a string"),
        refused("space:w tombstone /deleted = true and /x < false", "tombstone[1]", "lt takes a number or a string"),
        refused("space:w key:/a~ ", "key", "must be a JSON pointer"),
        refused("space:w key:receivedAt", "key", "the key must be feed or a JSON pointer"),
        refused("space:w select /a, receivedAt", "projection[1]", "takes JSON pointers, not metadata fields"),
        refused("space:w order positioned", "order", "booleans have no order"),
        refused("space:w order size desc", "order", "must be a JSON pointer"),
        refused("space:w limit 0", "limit", "must be an integer from 1"),
        refused("space:w limit 2147483648", "limit", "must be an integer from 1"),
        refused("space:w limit x", "limit", "must be an integer from 1"),
        refused("space:w feed:nope", "scope", "must be a ULID"),
        refused("space:w namespace:a/b", "scope", "namespace must be 1-128 characters of"),
        refused("space:w/x", "space", "spaceId must be 1-128 characters of"),
        refused("where /a = 1", "space", "is required"),
        refused("space:w frobnicate", "text", "a clause expected"),
        refused("space:w namespace: tasks", "text", "a value expected right after the colon"),
        refused("space:w where /a = 1 where /b = 2", "text", "where is given twice"),
        refused("space:w limit 5 limit 6", "text", "limit is given twice"),
        refused("space:w where", "filter[0]", "a field expected"));
  }

  private static Arguments refused(String text, String clause, String problem) {
    return Arguments.of(text, clause, problem);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedTexts")
  void textFormRefusalNamesTheClause(String text, String clause, String problem) {
    assertRefused(text, clause, problem);
  }

  static Stream<Arguments> refusedJson() {
    return Stream.of(
        refused("{\"space\":\"w\",\"filter\":[{\"field\":\"/a\",\"op\":\"like\",\"value\":1}]}", "filter[0]",
            "unknown operator \"like\""),
        refused("{\"space\":\"w\",\"filter\":[{\"field\":\"/a\",\"op\":\"eq\"}]}", "filter[0]", "value is required"),
        refused("{\"space\":\"w\",\"filter\":[{\"field\":\"/a\",\"op\":\"exists\",\"value\":1}]}", "filter[0]",
            "exists takes true or false, was 1"),
        refused("{\"space\":\"w\",\"filter\":[{\"field\":\"/a\",\"op\":\"eq\",\"value\":1,\"x\":2}]}", "filter[0]",
            "a predicate has field, op and value, not x"),
        refused("{\"space\":\"w\",\"filter\":[{\"field\":\"/a\",\"op\":\"gt\",\"value\":{}}]}", "filter[0]",
            "gt takes a number or a string, was {}"),
        refused("{\"space\":\"w\",\"filter\":{\"field\":\"/a\"}}", "filter", "must be an array"),
        refused("{\"space\":\"w\",\"tombstone\":[]}", "tombstone", "must hold at least one predicate"),
        refused("{\"space\":\"w\",\"scope\":{}}", "scope", "must name at least one feed or namespace"),
        refused("{\"space\":\"w\",\"scope\":{\"feeds\":[],\"namespaces\":[]}}", "scope", "must name at least one"),
        refused("{\"space\":\"w\",\"scope\":{\"spaces\":[\"x\"]}}", "scope.spaces", "feeds and namespaces"),
        refused("{\"space\":\"w\",\"scope\":{\"namespaces\":[7]}}", "scope.namespaces[0]", "must be a string, was 7"),
        refused("{\"space\":\"w\",\"key\":\"id\"}", "key", "must be a JSON pointer"),
        refused("{\"space\":\"w\",\"key\":5}", "key", "must be a string, was 5"),
        refused("{\"space\":\"w\",\"projection\":[]}", "projection", "must name at least one pointer"),
        refused("{\"space\":\"w\",\"projection\":[\"/a\",\"b\"]}", "projection[1]", "must be a JSON pointer"),
        refused("{\"space\":\"w\",\"order\":{\"field\":\"/a\",\"direction\":\"down\"}}", "order.direction",
            "must be asc or desc"),
        refused("{\"space\":\"w\",\"order\":{\"direction\":\"asc\"}}", "order", "field is required"),
        refused("{\"space\":\"w\",\"limit\":1.5}", "limit", "must be an integer from 1"),
        refused("{\"space\":\"w\",\"limit\":\"5\"}", "limit", "must be an integer from 1"),
        refused("{\"space\":\"w\",\"filters\":[]}", "filters", "not a member of a live query"),
        refused("{\"space\":\"w\",\"limit\":1,\"limit\":2}", "json", "a second member named \"limit\""),
        refused("{\"space\":\"w\",", "json", "not JSON"),
        refused("{\"space\":7}", "space", "must be a string"),
        refused("{}", "space", "is required"),
        refused("[]", "json", "a live query is a JSON object"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedJson")
  void jsonFormRefusalNamesTheClause(String json, String clause, String problem) {
    assertRefused(json, clause, problem);
  }

  private static void assertRefused(String form, String clause, String problem) {
    InvalidQueryException e = assertThrows(InvalidQueryException.class, () -> LiveQuery.parse(form));
    assertEquals(clause, e.clause(), e.getMessage());
    assertTrue(e.getMessage().startsWith(clause), e.getMessage());
    assertTrue(e.getMessage().contains(problem), e.getMessage());
  }

  @Test
  void builderRefusalNamesTheClauseInTheOrderGiven() {
    LiveQuery.Builder builder = LiveQuery.builder(SpaceId.of("w"))
        .where("/b", Operator.EQ, 1)
        .where("/a", Operator.LT, false);
    InvalidQueryException e = assertThrows(InvalidQueryException.class, builder::build);
    assertEquals("filter[1]", e.clause());
    assertEquals("filter[1] (/a lt false): lt takes a number or a string, was false", e.getMessage());
  }

  @Test
  void builderRefusesJavaValuesThatAreNoJson() {
    InvalidQueryException e = assertThrows(InvalidQueryException.class,
        () -> LiveQuery.builder(SpaceId.of("w")).where("/a", Operator.EQ, Double.NaN).build());
    assertEquals("filter[0]", e.clause());
    InvalidQueryException limit = assertThrows(InvalidQueryException.class,
        () -> LiveQuery.builder(SpaceId.of("w")).limit(-1).build());
    assertEquals("limit", limit.clause());
  }

  @Test
  void aGivenSpaceMustNotBeContradicted() {
    SpaceId given = SpaceId.of("work");
    assertEquals(given, LiveQuery.parse("where /a = 1", given).space());
    assertEquals(given, LiveQuery.parse("{\"filter\":[]}", given).space());
    assertEquals("space", assertThrows(InvalidQueryException.class,
        () -> LiveQuery.parse("space:play", given)).clause());
    assertEquals("space", assertThrows(InvalidQueryException.class,
        () -> LiveQuery.parse("{\"space\":\"play\"}", given)).clause());
  }
}
