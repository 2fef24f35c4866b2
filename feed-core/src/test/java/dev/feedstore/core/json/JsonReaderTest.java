package dev.feedstore.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonReaderTest {

  static Stream<Arguments> json() {
    return Stream.of(
        Arguments.of("a number alone", "7"),
        Arguments.of("a string alone", "\"x\""),
        Arguments.of("null alone", "null"),
        Arguments.of("whitespace around", " \t\r\n{\"a\": [1, 2.5, -3e2, true, false, null]} \n"),
        Arguments.of("empty containers", "[{}, [], \"\"]"),
        Arguments.of("every escape", "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00\""),
        Arguments.of("raw UTF-8 of every length", "\"é € 😀\""),
        Arguments.of("the largest code point", "\"\uDBFF\uDFFF\""),
        Arguments.of("same names in two objects", "[{\"a\":1},{\"a\":1}]"),
        Arguments.of("names that differ by case", "{\"a\":1,\"A\":2}"),
        Arguments.of("64 nested arrays", "[".repeat(64) + "]".repeat(64)),
        Arguments.of("64 nested objects and arrays", "{\"a\":".repeat(32) + "[".repeat(32) + "]".repeat(32) + "}".repeat(32)),
        Arguments.of("an exponent of 18 digits", "1e999999999999999999"),
        Arguments.of("an exponent with leading zeros", "1e0000000000000000000000000007"),
        Arguments.of("a number with many digits", "1" + "0".repeat(5000) + ".5"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("json")
  void acceptsJson(String name, String text) {
    JsonValue value = JsonReader.parse(text.getBytes(StandardCharsets.UTF_8));
    assertEquals(value, JsonReader.parse(value.toJson()), "the canonical text reads back equal");
  }

  static Stream<Arguments> notJson() {
    return Stream.of(
        text("empty input", ""),
        text("whitespace only", "  "),
        text("trailing text", "{} x"),
        text("two values", "1 2"),
        text("a byte order mark", "\uFEFF{}"),
        text("NaN", "NaN"),
        text("Infinity", "[Infinity]"),
        text("a leading zero", "01"),
        text("a plus sign", "+1"),
        text("a bare point", ".5"),
        text("a point without digits after it", "1."),
        text("an exponent without digits", "1e"),
        text("a minus alone", "-"),
        text("an exponent of 19 digits", "1e1000000000000000000"),
        text("single quotes", "'a'"),
        text("a comment", "[1 /* c */]"),
        text("a trailing comma in an array", "[1,]"),
        text("a trailing comma in an object", "{\"a\":1,}"),
        text("an unquoted name", "{a:1}"),
        text("a missing colon", "{\"a\" 1}"),
        text("an unclosed array", "[1"),
        text("an unclosed string", "\"abc"),
        text("an unknown word", "nul"),
        text("True in capitals", "True"),
        text("a raw tab in a string", "\"a\tb\""),
        text("a raw newline in a string", "\"a\nb\""),
        text("an unknown escape", "\"\\x\""),
        text("a short unicode escape", "\"\\u12\""),
        text("a lone high surrogate escape", "\"\\ud800\""),
        text("a lone low surrogate escape", "\"\\udc00\""),
        text("a high surrogate escape then a letter", "\"\\ud800a\""),
        text("two high surrogate escapes", "\"\\ud800\\ud800\""),
        text("duplicate member names", "{\"a\":1,\"a\":1}"),
        text("duplicate member names after unescaping", "{\"a\":1,\"\\u0061\":2}"),
        text("duplicate member names with different values", "{\"x\":{\"a\":[]},\"x\":null}"),
        text("duplicate escaped names", "{\"\\n\":1,\"\\u000a\":2}"),
        text("65 nested arrays", "[".repeat(65) + "]".repeat(65)),
        text("65 nested objects and arrays", "{\"a\":".repeat(33) + "[".repeat(32) + "]".repeat(32) + "}".repeat(33)),
        bytes("invalid UTF-8: a lone continuation byte", '"', 0x80, '"'),
        bytes("invalid UTF-8: an overlong slash", '"', 0xc0, 0xaf, '"'),
        bytes("invalid UTF-8: an overlong 3-byte form", '"', 0xe0, 0x80, 0xaf, '"'),
        bytes("invalid UTF-8: an overlong 4-byte form", '"', 0xf0, 0x80, 0x80, 0xaf, '"'),
        bytes("invalid UTF-8: an encoded high surrogate", '"', 0xed, 0xa0, 0x80, '"'),
        bytes("invalid UTF-8: an encoded low surrogate", '"', 0xed, 0xbf, 0xbf, '"'),
        bytes("invalid UTF-8: above U+10FFFF", '"', 0xf4, 0x90, 0x80, 0x80, '"'),
        bytes("invalid UTF-8: a truncated sequence", '"', 0xe2, 0x82, '"'),
        bytes("invalid UTF-8: 0xFF", '"', 0xff, '"'),
        bytes("invalid UTF-8 outside a string", '[', 0xc3, 0xa9, ']'),
        bytes("a NUL byte after the value", '1', 0));
  }

  private static Arguments text(String name, String text) {
    return Arguments.of(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private static Arguments bytes(String name, int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return Arguments.of(name, bytes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notJson")
  void refusesWhatIsNotJson(String name, byte[] bytes) {
    MalformedJsonException e = assertThrows(MalformedJsonException.class, () -> JsonReader.parse(bytes));
    assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, e.getMessage());
    assertTrue(JsonReader.tryParse(bytes).isEmpty());
  }

  @Test
  void readsValuesWithTheirTypesAndMembers() {
    JsonValue value = JsonReader.parse("{\"b\":[1,\"two\",null,true],\"a\":{\"\":false}}");
    JsonObject object = (JsonObject) value;
    assertEquals(List.of("b", "a"), List.copyOf(object.members().keySet()), "members in the order read");
    assertEquals(JsonValue.of(List.of(1, "two", JsonNull.NULL, true)), object.get("b"));
    assertEquals(JsonValue.of(Map.of("", false)), object.get("a"));
    assertEquals("{\"a\":{\"\":false},\"b\":[1,\"two\",null,true]}", value.toJson());
  }

  @Test
  void objectsOfAnySizeReadAsUnmodifiableMapsEqualToTheirMembers() {
    for (int size : new int[] {0, 1, 5, 8, 9, 40}) {
      StringBuilder text = new StringBuilder("{");
      Map<String, JsonValue> reversed = new java.util.LinkedHashMap<>();
      for (int i = size - 1; i >= 0; i--) {
        reversed.put("m" + i, JsonNumber.of(i));
      }
      for (int i = 0; i < size; i++) {
        text.append(i == 0 ? "" : ",").append("\"m").append(i).append("\":").append(i);
      }
      JsonObject read = (JsonObject) JsonReader.parse(text.append('}').toString());
      JsonObject made = JsonObject.of(reversed);

      assertEquals(made, read, size + " members");
      assertEquals(read, made);
      assertEquals(made.hashCode(), read.hashCode());
      assertEquals(reversed, read.members());
      assertEquals(size, read.members().size());
      for (int i = 0; i < size; i++) {
        assertEquals(JsonNumber.of(i), read.get("m" + i));
        assertTrue(read.members().containsKey("m" + i));
        assertEquals("m" + i, List.copyOf(read.members().keySet()).get(i), "members in the order read");
      }
      assertEquals(null, read.get("m" + size));
      assertFalse(read.members().containsKey("m" + size));
      assertThrows(UnsupportedOperationException.class, () -> read.members().put("x", JsonNull.NULL));
      assertThrows(UnsupportedOperationException.class, () -> read.members().clear());
    }
  }

  @Test
  void decodesEscapesAndUtf8ToTheSameString() {
    assertEquals(JsonString.of("é😀\n"), JsonReader.parse("\"\\u00E9\\uD83D\\uDE00\\n\""));
    assertEquals(JsonString.of("é😀\n"), JsonReader.parse("\"é😀\\n\""));
  }

  @Test
  void refusesTextWithALoneSurrogate() {
    assertThrows(MalformedJsonException.class, () -> JsonReader.parse("\"\uD800\""));
  }

  @Test
  void objectsAreEqualWhateverTheOrderOfTheirMembers() {
    assertEquals(JsonReader.parse("{\"a\":1,\"b\":[2,{\"c\":3,\"d\":4}]}"),
        JsonReader.parse("{\"b\":[2.0,{\"d\":4,\"c\":3}],\"a\":1e0}"));
    assertFalse(JsonReader.parse("[1,2]").equals(JsonReader.parse("[2,1]")), "arrays are ordered");
  }

  @Test
  void readValueReadsOneValueAndSaysWhereItEnds() {
    byte[] text = "  [1, 2] and more".getBytes(StandardCharsets.UTF_8);
    JsonReader.ValueAt read = JsonReader.readValue(text, 0);
    assertEquals(JsonValue.of(List.of(1, 2)), read.value());
    assertEquals(8, read.end());
  }
}
