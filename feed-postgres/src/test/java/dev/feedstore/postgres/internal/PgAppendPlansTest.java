package dev.feedstore.postgres.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.store.Sql;
import dev.feedstore.store.StatementCache;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An append to one feed finds its feed and counts its blocks by the feed's key whatever plan
 * PostgreSQL keeps for the append function's statements: it reads no table of feeds whole, so its
 * cost does not grow with the feeds stored.
 */
class PgAppendPlansTest {

  @ParameterizedTest
  @ValueSource(strings = {"force_generic_plan", "force_custom_plan", "auto"})
  void anAppendToOneFeedReadsItsFeedByKeyInAnyPlan(String planCacheMode) throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    PostgresStore.open(EmbeddedDatabase.settings(url)).close(); // the schema
    SpaceId space = new SpaceId("plans");
    FeedId feed = TestBlocks.feedId();
    try (Connection c = DriverManager.getConnection(url); StatementCache statements = new StatementCache(c)) {
      c.setAutoCommit(false);
      try (Statement statement = c.createStatement()) {
        statement.execute("SET plan_cache_mode = " + planCacheMode);
        // Other spaces' feeds, so that a plan reading the table whole has more than the one to read.
        statement.execute("INSERT INTO spaces (space_id) SELECT 'other-' || i FROM generate_series(1, 20) i");
        statement.execute("INSERT INTO feeds (space_private_id, feed_id) SELECT space_private_id, 'feed-' || i"
            + " FROM spaces, generate_series(1, 20) i");
        statement.execute("ANALYZE feeds");
      }
      c.commit();
      PostgresDialect dialect = new PostgresDialect("test");
      Sql sql = new Sql(statements);
      append(sql, dialect, space, feed, 0); // creates the space and its feed
      c.commit();
      for (long sequence = 1; sequence <= 12; sequence++) { // past the calls after which a plan is kept
        append(sql, dialect, space, feed, sequence);
      }
      try (Statement statement = c.createStatement();
          ResultSet rs = statement.executeQuery("SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables"
              + " WHERE relname = 'feeds'")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getLong(1), "whole reads of the feeds' table in 12 appends (" + planCacheMode + ")");
        assertTrue(rs.getLong(2) > 0, "the feed is found by its key");
      }
      c.commit();
      try (Statement statement = c.createStatement();
          ResultSet rs = statement.executeQuery("SELECT block_count FROM feeds WHERE feed_id = '" + feed.value() + "'")) {
        assertTrue(rs.next());
        assertEquals(13, rs.getLong(1), "every block counted");
      }
    }
  }

  private static void append(Sql sql, PostgresDialect dialect, SpaceId space, FeedId feed, long sequence) {
    Optional<List<SpaceAppend.Stored>> stored = PgAppend.runAllNew(sql, List.of(new SpaceAppend(space,
        Map.of(feed, Optional.empty()), List.of(TestBlocks.block(feed, "a", sequence)), 1)), dialect, 1_000);
    assertTrue(stored.isPresent());
  }
}
