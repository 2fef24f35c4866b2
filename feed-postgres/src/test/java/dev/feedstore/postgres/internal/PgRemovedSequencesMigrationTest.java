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
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A database of schema version 7 (from before feeds kept the highest sequence retention removed from
 * them) brought to version 8: a feed that lost blocks keeps its next sequences above one less than the
 * highest position it lost, which bounds the removed sequences, since which ones they were is not known.
 */
class PgRemovedSequencesMigrationTest {
  @Test
  void aVersion7DatabaseKeepsTheSequencesOfEveryCompactedFeedAboveWhatItMayHaveLost() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    FeedId compacted = TestBlocks.feedId();
    FeedId whole = TestBlocks.feedId();
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      OlderSchema.create(s, 7);
      s.execute("INSERT INTO spaces (space_id, server_token, feed_count, max_position, floor_position)"
          + " VALUES ('s', 't', 2, 9, 5)");
      s.execute("INSERT INTO feeds (space_private_id, feed_id, removed_up_to) SELECT space_private_id, '"
          + compacted.value() + "', 5 FROM spaces");
      s.execute("INSERT INTO feeds (space_private_id, feed_id, removed_up_to) SELECT space_private_id, '"
          + whole.value() + "', 0 FROM spaces");
    }
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      assertEquals(OptionalLong.of(4), store.read(tx -> tx.streams().maxSequence(SpaceId.of("s"), compacted)),
          "blocks at positions 1 to 5 had sequences below 5");
      assertEquals(OptionalLong.empty(), store.read(tx -> tx.streams().maxSequence(SpaceId.of("s"), whole)));
    }
  }
}
