package dev.feedstore.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonWriterTest {

  @Test
  void sortsMembersByCodePointAndDropsWhitespace() {
    JsonValue value = JsonReader.parse("{ \"b\" : 1, \"\uFFFF\": 2, \"😀\": 3, \"a\": [ 1.50, {\"z\":0, \"y\":-0} ] }");
    assertEquals("{\"a\":[1.5,{\"y\":0,\"z\":0}],\"b\":1,\"\uFFFF\":2,\"😀\":3}", value.toJson());
  }

  @Test
  void escapesOnlyWhatMustBeEscaped() {
    JsonValue value = JsonReader.parse("\"\\u0022\\\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f é\\u2028\"");
    assertEquals("\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\u007f é\u2028\"", value.toJson());
    assertEquals(value, JsonReader.parse(value.toJson()));
  }
}
