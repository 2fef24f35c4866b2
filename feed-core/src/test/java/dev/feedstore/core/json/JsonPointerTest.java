package dev.feedstore.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.InvalidValueException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonPointerTest {
  /** The document of RFC 6901, section 5. */
  private static final JsonValue RFC = JsonReader.parse(
      "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, \"e^f\": 3, \"g|h\": 4, \"i\\\\j\": 5,"
          + " \"k\\\"l\": 6, \" \": 7, \"m~n\": 8}");

  @Test
  void resolvesTheExamplesOfRfc6901() {
    assertEquals(RFC, JsonPointer.parse("").resolve(RFC));
    assertEquals(JsonValue.of(List.of("bar", "baz")), resolve("/foo"));
    assertEquals(JsonValue.of("bar"), resolve("/foo/0"));
    assertEquals(JsonValue.of(0), resolve("/"));
    assertEquals(JsonValue.of(1), resolve("/a~1b"));
    assertEquals(JsonValue.of(2), resolve("/c%d"));
    assertEquals(JsonValue.of(3), resolve("/e^f"));
    assertEquals(JsonValue.of(4), resolve("/g|h"));
    assertEquals(JsonValue.of(5), resolve("/i\\j"));
    assertEquals(JsonValue.of(6), resolve("/k\"l"));
    assertEquals(JsonValue.of(7), resolve("/ "));
    assertEquals(JsonValue.of(8), resolve("/m~0n"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/foo/2", "/foo/-", "/foo/01", "/foo/+1", "/foo/1/x", "/nothing", "/foo/bar", "/m~0n/x",
      "/foo/99999999999"})
  void resolvesToNothingWhereNothingIs(String pointer) {
    assertNull(resolve(pointer));
  }

  @Test
  void escapesAreUndoneInOrder() {
    assertEquals(List.of("~1"), JsonPointer.parse("/~01").tokens(), "~01 is ~ then 1, not /");
    assertEquals(List.of("a", "", "b/c"), JsonPointer.parse("/a//b~1c").tokens());
  }

  @ParameterizedTest
  @ValueSource(strings = {"foo", "#/foo", "/a~", "/a~2", "/~x"})
  void refusesWhatIsNoPointer(String text) {
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> JsonPointer.parse(text));
    assertEquals("pointer", e.field());
  }

  private static JsonValue resolve(String pointer) {
    return JsonPointer.parse(pointer).resolve(RFC);
  }
}
