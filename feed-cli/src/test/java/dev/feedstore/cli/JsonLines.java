package dev.feedstore.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses feedctl's JSON lines (flat objects of strings and numbers) for assertions. */
final class JsonLines {
  private static final JsonFactory JSON = new JsonFactory();

  private JsonLines() {}

  static List<Map<String, Object>> parse(List<String> lines) {
    return lines.stream().map(JsonLines::parse).toList();
  }

  static Map<String, Object> parse(String line) {
    Map<String, Object> object = new LinkedHashMap<>();
    try (JsonParser parser = JSON.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new AssertionError("not a JSON object: " + line);
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        object.put(name, switch (value) {
          case VALUE_STRING -> parser.getText();
          case VALUE_NUMBER_INT -> parser.getLongValue();
          case VALUE_TRUE, VALUE_FALSE -> parser.getBooleanValue();
          default -> throw new AssertionError("unexpected " + value + " in " + line);
        });
      }
      if (parser.nextToken() != null) {
        throw new AssertionError("more than one object on a line: " + line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return object;
  }
}
