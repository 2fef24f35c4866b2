package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.settings.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadAndListTest {
  @TempDir Path dir;
  RestartableServer server;
  String notes;
  String logs;

  /** Positions 1-3: notes "n0", logs "l0", notes "n1"; then logs "l1" at 4. */
  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
    notes = Cli.run("create", "--server", server.address(), "--space", "demo", "--namespace", "notes", "n0").out().strip();
    logs = Cli.run("create", "--server", server.address(), "--space", "demo", "--namespace", "logs", "l0").out().strip();
    Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", notes, "n1");
    Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", logs, "l1");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void readPrintsTheSpaceInPositionOrderForPeople() {
    Cli.Result read = Cli.run("read", "--server", server.address(), "--space", "demo");

    assertEquals(0, read.exit(), read.toString());
    List<String> lines = read.lines();
    assertEquals(4, lines.size(), read.toString());
    assertTrue(lines.get(0).matches("\\s+1  " + notes + "  notes  feedctl/0  \\d{4}-\\d\\d-\\d\\dT\\S+Z  n0"), lines.get(0));
    assertTrue(lines.get(3).matches("\\s+4  " + logs + "  logs  feedctl/1  \\S+  l1"), lines.get(3));
    assertEquals("4 block(s) after position 0; the space's highest position is 4\n", read.err());
  }

  @Test
  void readOfAFeedAfterACursorInSmallPagesWithALimit() {
    Cli.Result read = Cli.run("read", "--server", server.address(), "--space", "demo", "--feed", notes, "--json");
    assertEquals(List.of("n0", "n1"), JsonLines.parse(read.lines()).stream().map(m -> m.get("data")).toList());

    Cli.Result after = Cli.run("read", "--server", server.address(), "--space", "demo", "--from", "1", "--page-size",
        "1", "--limit", "2", "--json");
    List<Map<String, Object>> blocks = JsonLines.parse(after.lines());
    assertEquals(List.of(2L, 3L), blocks.stream().map(m -> m.get("position")).toList());
    Map<String, Object> n1 = blocks.get(1);
    assertEquals("block", n1.get("type"));
    assertEquals("demo", n1.get("space_id"));
    assertEquals(notes, n1.get("feed_id"));
    assertEquals("notes", n1.get("namespace"));
    assertEquals("feedctl", n1.get("actor_id"));
    assertEquals(1L, n1.get("sequence"));
    assertEquals("feedctl", n1.get("prev_actor_id"));
    assertEquals(0L, n1.get("prev_sequence"));
    assertTrue((Long) n1.get("timestamp") > 0);
  }

  @Test
  void readOfANamespace() {
    Cli.Result read = Cli.run("read", "--server", server.address(), "--space", "demo", "--namespace", "logs", "--json");
    assertEquals(List.of("l0", "l1"), JsonLines.parse(read.lines()).stream().map(m -> m.get("data")).toList());
  }

  @Test
  void dataThatIsNotUtf8IsBase64InJsonAndMarkedForPeople() throws Exception {
    Path file = Files.write(dir.resolve("bin"), new byte[] {(byte) 0xff, 0, 'a'});
    Cli.run("append", "--server", server.address(), "--space", "bin", "--feed", notes, "--file", file.toString());
    Cli.run("append", "--server", server.address(), "--space", "bin", "--feed", notes, "quote \" and\nnewline");

    List<Map<String, Object>> json = JsonLines.parse(
        Cli.run("read", "--server", server.address(), "--space", "bin", "--json").lines());
    assertEquals("/wBh", json.get(0).get("data_base64"));
    assertFalse(json.get(0).containsKey("data"));
    assertEquals("quote \" and\nnewline", json.get(1).get("data"));

    List<String> human = Cli.run("read", "--server", server.address(), "--space", "bin").lines();
    assertTrue(human.get(0).endsWith("  base64:/wBh"), human.get(0));
    assertTrue(human.get(1).endsWith("  quote \" and\\nnewline"), human.get(1));
  }

  @Test
  void listShowsFeedsWithNamespacesCountsAndLastPositions() {
    Cli.Result list = Cli.run("list", "--server", server.address(), "--space", "demo");

    assertEquals(0, list.exit(), list.toString());
    assertEquals(3, list.lines().size(), list.toString());
    assertTrue(list.lines().get(0).matches("FEED\\s+NAMESPACE\\s+BLOCKS\\s+LAST_POSITION"), list.lines().get(0));
    assertTrue(list.out().contains(notes + "  notes "), list.out());
    assertEquals("2 feed(s); the space's highest position is 4\n", list.err());

    List<Map<String, Object>> json = JsonLines.parse(Cli.run("list", "--server", server.address(), "--space", "demo",
        "--namespace", "logs", "--json").lines());
    assertEquals(List.of(Map.of("type", "feed", "space_id", "demo", "feed_id", logs, "namespace", "logs",
        "block_count", 2L, "last_position", 4L)), json);
  }

  @Test
  void listReadsEveryPageWhenTheSpaceHasMoreFeedsThanOnePageHolds(@TempDir Path other) {
    ServerSettings settings = ServerSettings.newBuilder().set(QUERY_LIMIT, 2).set(WATCH_BATCH_BLOCKS, 2).build();
    try (RestartableServer small = RestartableServer.loopback(other, builder -> builder.settings(settings))) {
      List<String> created = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        created.add(Cli.run("create", "--server", small.address(), "--space", "many", "f" + i).out().strip());
      }
      created.sort(null);

      Cli.Result list = Cli.run("list", "--server", small.address(), "--space", "many", "--json");

      assertEquals(0, list.exit(), list.toString());
      assertEquals(created, JsonLines.parse(list.lines()).stream().map(feed -> feed.get("feed_id")).toList());
      assertEquals("5 feed(s); the space's highest position is 5\n", list.err());
    }
  }
}
