package dev.feedstore.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.sqlite.testing.PageDamage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's {@code PRAGMA quick_check} over a store's file, as a server runs it at start. */
class QuickCheckTest {
  @TempDir Path dir;

  @Test
  void aHealthyStoreIsCheckedWholeAndFoundUndamaged() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("healthy.db"))) {
      QuickCheck check = store.quickCheck(Duration.ofSeconds(30));

      assertTrue(check.complete(), check.toString());
      assertEquals(List.of(), check.problems());
      assertFalse(check.damaged());
    }
  }

  @Test
  void aStoreWithAnOverwrittenBlocksPageIsFoundDamaged() {
    Path file = dir.resolve("damaged.db");
    PageDamage.damagedStore(file, 2_000);

    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      QuickCheck check = store.quickCheck(Duration.ofSeconds(30));

      assertTrue(check.damaged(), check.toString());
      String problems = String.join("\n", check.problems());
      assertTrue(problems.contains("index blocks_") && problems.contains("malformed"), check.toString());
      assertTrue(check.problems().size() <= QuickCheck.MAX_PROBLEMS, check.toString());
    }
  }
}
