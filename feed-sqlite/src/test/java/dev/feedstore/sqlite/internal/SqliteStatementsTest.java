package dev.feedstore.sqlite.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.store.StoreQueries;
import dev.feedstore.store.testing.StatementSnapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SQL the SQLite store runs on its hot paths, rendered once from the shared statements. */
class SqliteStatementsTest {
  private final Map<String, String> hot = StoreQueries.of(SqliteDialect.INSTANCE).hotStatements();

  @Test
  void hotStatementsAreRenderedAsTheSnapshotHasThem() throws Exception {
    StatementSnapshot.assertMatches(getClass(), "hot-statements.txt", hot);
  }

  /**
   * jOOQ's open-source edition leaves RETURNING out of a SQLite INSERT unless told the schema has no
   * triggers to read back, and would then fetch the new row's id with a second statement.
   */
  @Test
  void newRowsAndClaimsAreReadWithSqlitesOwnReturning() {
    for (String name : new String[] {"create space", "create feed", "claim positions", "stamp receipt"}) {
      assertTrue(hot.get(name).contains(" returning "), name + ": " + hot.get(name));
    }
  }
}
