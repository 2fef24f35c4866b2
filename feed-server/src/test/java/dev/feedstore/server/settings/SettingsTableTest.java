package dev.feedstore.server.settings;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The settings table of {@code docs/deployment.md} is made from the entries of {@link
 * ServerSettings}. Run with {@code -Dsettings.write=true} to rewrite it, and the constants' comments
 * ({@link SettingCommentsTest}), after changing an entry: {@code ./mvnw -B -ntp -q test -pl
 * feed-server -am -Dtest='Setting*Test' -Dsurefire.failIfNoSpecifiedTests=false -Dsettings.write=true}.
 */
class SettingsTableTest {
  private static final Path GUIDE = Path.of("..", "docs", "deployment.md");

  @Test
  void theDeploymentGuidesTableIsTheOneTheEntriesMake() throws IOException {
    String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
    if (Boolean.getBoolean("settings.write")) {
      guide = SettingsTable.rewrite(guide);
      Files.writeString(GUIDE, guide, StandardCharsets.UTF_8);
    }

    List<String> differences = SettingsTable.differences(guide);

    assertTrue(differences.isEmpty(), "docs/deployment.md's settings table differs from ServerSettings:\n"
        + String.join("\n", differences) + "\nEdit the entry in ServerSettings, then rewrite the table with"
        + " -Dsettings.write=true (see SettingsTableTest)");
  }

  @Test
  void aRowThatDriftedFromItsEntryIsNamed() {
    String guide = SettingsTable.rewrite("# Guide\n\n" + SettingsTable.BEGIN + "\n" + SettingsTable.END + "\n");
    String row = SettingsTable.row(SHARED_PAGES);

    List<String> changedDefault = SettingsTable.differences(guide.replace(row, row.replace("| 512 |", "| 256 |")));
    List<String> missing = SettingsTable.differences(guide.replace(row + "\n", ""));
    List<String> unknown = SettingsTable.differences(guide.replace(row, row + "\n| `--shared-slots` | 8 | > 0 | live"
        + " streams | Slots. |"));
    List<String> moved = SettingsTable.differences(guide.replace(row + "\n", "")
        .replace(SettingsTable.row(TAIL_BLOCKS), row + "\n" + SettingsTable.row(TAIL_BLOCKS)));

    assertEquals(List.of(), SettingsTable.differences(guide));
    assertEquals(1, changedDefault.size(), changedDefault.toString());
    assertTrue(changedDefault.get(0).startsWith("--shared-pages's row says"), changedDefault.get(0));
    assertEquals(List.of("--shared-pages has no row"), missing);
    assertEquals(List.of("--shared-slots has a row but no entry"), unknown);
    assertEquals(1, moved.size(), moved.toString());
    assertTrue(moved.get(0).startsWith("the rows are not in the order of the entries"), moved.get(0));
  }

  @Test
  void rewritingKeepsTheTextAroundTheTable() {
    String guide = "# Guide\n\nBefore.\n\n" + SettingsTable.BEGIN + "\n| old | row |\n" + SettingsTable.END
        + "\n\nAfter.\n";

    String rewritten = SettingsTable.rewrite(guide);

    assertTrue(rewritten.startsWith("# Guide\n\nBefore.\n\n" + SettingsTable.BEGIN + "\n" + SettingsTable.HEADER),
        rewritten);
    assertTrue(rewritten.endsWith(SettingsTable.row(ServerSettings.ALL.get(ServerSettings.ALL.size() - 1)) + "\n"
        + SettingsTable.END + "\n\nAfter.\n"), rewritten);
    assertEquals(rewritten, SettingsTable.rewrite(rewritten));
    assertThrows(IllegalArgumentException.class, () -> SettingsTable.rewrite("# A guide without the markers\n"));
  }

  @Test
  void aRowShowsTheDefaultReadablyTheRuleAndWhereItApplies() {
    assertEquals("| `--block-bytes` | 1048576 (1 MiB) | > 0 | requests | Largest data of one block. |",
        SettingsTable.row(ServerSettings.BLOCK_BYTES));
    assertTrue(SettingsTable.row(ServerSettings.SUBSCRIPTION_TTL_MS)
        .startsWith("| `--subscription-ttl-ms` | 3600000 (1 h) | > 0, <= subscription-max-ttl-ms | subscriptions |"));
    assertTrue(SettingsTable.row(ServerSettings.QUICK_CHECK_MS)
        .startsWith("| `--quick-check-ms` | 20000 (20 s) | >= 0 (0 skips the check) | SQLite store |"));
    assertTrue(SettingsTable.row(SHARED_PAGES).startsWith("| `--shared-pages` | 512 | 1 to 65536 | live streams |"));
    assertTrue(SettingsTable.row(ServerSettings.STREAMS_SPACE).startsWith("| `--streams-space` | `streams` |"));
  }
}
