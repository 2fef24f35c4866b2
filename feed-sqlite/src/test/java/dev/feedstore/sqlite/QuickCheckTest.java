package dev.feedstore.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.store.DamagedStoreException;
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
      assertEquals("sqlite_schema", check.checked().get(0));
      assertEquals("blocks", check.checked().get(check.checked().size() - 1), "the largest table last");
      assertTrue(check.summary().startsWith("quick_check ok: " + check.checked().size() + " tables checked whole in "),
          check.summary());
    }
  }

  @Test
  void aCheckOutOfTimeNamesWhatItDidNotCheckAndNeverSaysOk() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("unchecked.db"))) {
      QuickCheck check = store.quickCheck(Duration.ofNanos(1));

      assertFalse(check.complete(), check.toString());
      assertFalse(check.damaged(), check.toString());
      assertEquals(List.of(), check.checked());
      assertTrue(check.unchecked().contains("blocks"), check.toString());
      assertTrue(check.summary().startsWith("quick_check incomplete: 0 tables of " + check.unchecked().size()
          + " checked whole in "), check.summary());
      assertTrue(check.summary().endsWith("not checked whole: " + String.join(", ", check.unchecked())),
          check.summary());
      assertFalse(check.summary().contains("ok"), check.summary());
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

  @Test
  void aStoreWhoseBlocksRootPageIsOverwrittenIsFoundDamaged() {
    Path file = dir.resolve("damaged-root.db");
    int root = PageDamage.storeWithDamagedRoot(file, 2_000);

    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      QuickCheck check = store.quickCheck(Duration.ofSeconds(30));

      assertTrue(check.damaged(), check.toString());
      String unreadable = "page " + root + ": btreeInitPage() returns error code 11";
      assertTrue(check.problems().get(0).endsWith(unreadable), check.toString());
      assertFalse(check.checked().contains("blocks") && check.complete(), check.toString());
      DamagedStoreException refused = assertThrows(DamagedStoreException.class,
          () -> check.refuseDamaged(store.file(), "Restore it."));
      assertEquals(store.file(), refused.file());
      assertTrue(refused.getMessage().startsWith("database file " + store.file() + " is damaged: SQLite's quick_check"
          + " found "), refused.getMessage());
      assertTrue(refused.getMessage().contains(unreadable), refused.getMessage());
      assertTrue(refused.getMessage().endsWith(". Restore it."), refused.getMessage());
    }
  }
}
