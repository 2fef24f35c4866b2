package dev.feedstore.postgres.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A database of schema version 5 (from before feeds kept what retention removed from them) brought to
 * version 6: every feed of a compacted space counts as having lost blocks up to the space's floor,
 * since which feeds the earlier compactions took blocks from is not known.
 */
class PgFeedRemovalsMigrationTest {
  @Test
  void aVersion5DatabaseCountsEveryFeedOfACompactedSpaceAsHavingLostBlocksUpToItsFloor() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    FeedId compacted = TestBlocks.feedId();
    FeedId whole = TestBlocks.feedId();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      OlderSchema.create(s, 5);
      s.execute("INSERT INTO spaces (space_id, server_token, feed_count, max_position, floor_position)"
          + " VALUES ('s', 't', 1, 9, 5), ('w', 'u', 1, 3, 0)");
      s.execute("INSERT INTO feeds (space_private_id, feed_id) SELECT space_private_id, CASE space_id WHEN 's' THEN '"
          + compacted.value() + "' ELSE '" + whole.value() + "' END FROM spaces");
    }
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      assertEquals(5L, (long) store.read(tx -> tx.streams().removedUpTo(SpaceId.of("s"), compacted)));
      assertEquals(0L, (long) store.read(tx -> tx.streams().removedUpTo(SpaceId.of("w"), whole)));
    }
  }
}
