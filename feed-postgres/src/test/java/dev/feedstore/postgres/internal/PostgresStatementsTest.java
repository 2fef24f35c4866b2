package dev.feedstore.postgres.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.store.StoreQueries;
import dev.feedstore.store.testing.StatementSnapshot;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SQL the PostgreSQL store runs on its hot paths, rendered once from the shared statements. */
class PostgresStatementsTest {
  private final Map<String, String> hot = StoreQueries.of(new PostgresDialect("instance")).hotStatements();

  @Test
  void hotStatementsAreRenderedAsTheSnapshotHasThem() throws Exception {
    StatementSnapshot.assertMatches(getClass(), "hot-statements.txt", hot);
  }

  @Test
  void theClaimTellsOtherProcessesAndHoldsTheSpacesRow() {
    assertTrue(hot.get("claim positions").contains("pg_notify("), hot.get("claim positions"));
    assertTrue(hot.get("hold positions").endsWith(" for no key update"), hot.get("hold positions"));
  }
}
