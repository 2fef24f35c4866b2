package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.testing.RestartableServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code feedctl live}: the result of a live query, then its changes, against a real server. */
class LiveCommandTest {
  static final String OPEN = "key:/id where /status = \"open\"";

  @TempDir Path dir;
  RestartableServer server;
  String feed;

  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
    feed = Cli.run("create", "--server", server.address(), "--space", "demo", "{\"id\":1,\"status\":\"open\"}")
        .out().strip();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private void append(String text) {
    Cli.Result appended = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed, text);
    assertEquals(0, appended.exit(), appended.toString());
  }

  @Test
  void livePrintsTheResultThenTheChangesAsTheyCommit() throws Exception {
    Cli.Background live = Cli.start("live", "--server", server.address(), "--space", "demo", "--count", "2", OPEN);
    live.awaitErr("-- ready at position 1");

    append("{\"id\":2,\"status\":\"open\"}");
    append("{\"id\":1,\"status\":\"done\"}");

    Cli.Result result = live.await();
    assertEquals(0, result.exit(), result.toString());
    assertEquals(List.of("  1 @1  {\"id\":1,\"status\":\"open\"}", "+ 2 @2  {\"id\":2,\"status\":\"open\"}", "- 1 @1"),
        result.lines(), result.toString());
  }

  @Test
  void liveAsJsonLinesCarriesTheResumeTokens() throws Exception {
    Cli.Result result = Cli.run("live", "--server", server.address(), "--space", "demo", "--count", "0", "--json",
        OPEN);
    assertEquals(0, result.exit(), result.toString());
    List<String> lines = result.lines();
    assertEquals(2, lines.size(), result.toString());
    assertEquals("{\"type\":\"row\",\"key\":1,\"position\":1,\"content\":{\"id\":1,\"status\":\"open\"},\"at\":1}",
        lines.get(0), "the content as JSON, not as a string");
    assertTrue(lines.get(1).startsWith("{\"type\":\"ready\",\"position\":1,\"resume_token\":\"1.0."), lines.get(1));
  }

  @Test
  void aQueryThatCannotBeEvaluatedIsRefusedNamingTheClause() {
    Cli.Result result = Cli.run("live", "--server", server.address(), "--space", "demo", "where /n < true");
    assertTrue(result.exit() != 0, result.toString());
    assertTrue(result.err().contains("filter[0]"), result.err());
  }
}
