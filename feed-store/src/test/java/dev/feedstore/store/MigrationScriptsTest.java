package dev.feedstore.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationScriptsTest {
  @Test
  void scriptsSplitOnSemicolonLinesAndSkipComments() {
    List<String> statements =
        MigrationScripts.statements("-- a comment\nCREATE TABLE a (x)\n;\n-- only a comment\n;\nCREATE TABLE b (y)\n");
    assertEquals(List.of("-- a comment\nCREATE TABLE a (x)", "CREATE TABLE b (y)"), statements);
  }
}
