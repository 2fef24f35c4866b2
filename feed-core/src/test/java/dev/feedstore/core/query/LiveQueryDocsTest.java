package dev.feedstore.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.json.JsonArray;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** docs/live-queries.md shows the JSON form the code reads: its schema and its example agree with the code. */
class LiveQueryDocsTest {

  private static List<String> jsonBlocks() throws IOException {
    List<String> blocks = new ArrayList<>();
    String[] parts = Files.readString(Path.of("..", "docs", "live-queries.md")).split("```");
    for (int i = 1; i < parts.length; i += 2) {
      if (parts[i].startsWith("json\n")) {
        blocks.add(parts[i].substring("json\n".length()));
      }
    }
    return blocks;
  }

  @Test
  void theSchemaNamesTheMembersOperatorsAndFieldsTheCodeReads() throws IOException {
    JsonObject schema = (JsonObject) JsonReader.parse(jsonBlocks().stream()
        .filter(block -> block.contains("\"$schema\"")).findFirst().orElseThrow());
    assertEquals(QueryJson.MEMBERS, ((JsonObject) schema.get("properties")).members().keySet());
    JsonObject defs = (JsonObject) schema.get("$defs");
    JsonObject predicate = (JsonObject) ((JsonObject) defs.get("predicate")).get("properties");
    assertEquals(Arrays.stream(Operator.values()).map(Operator::jsonName).collect(Collectors.toSet()),
        strings(((JsonObject) predicate.get("op")).get("enum")));
    assertEquals(Arrays.stream(MetadataField.values()).map(MetadataField::fieldName).collect(Collectors.toSet()),
        strings(((JsonObject) defs.get("metadata")).get("enum")));
  }

  @Test
  void theExampleIsACanonicalQuery() throws IOException {
    String example = jsonBlocks().stream().filter(block -> block.startsWith("{\"filter\"")).findFirst().orElseThrow()
        .replace("\n ", "").strip();
    assertEquals(example, LiveQuery.parse(example).toJson());
  }

  private static Set<String> strings(JsonValue array) {
    return ((JsonArray) array).elements().stream().map(v -> ((JsonString) v).value()).collect(Collectors.toSet());
  }
}
