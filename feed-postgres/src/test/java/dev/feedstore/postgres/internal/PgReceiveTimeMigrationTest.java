package dev.feedstore.postgres.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A database of schema version 3 (from before receive times) brought to version 4: its blocks are
 * kept and stamped in position order, never later than the migration, and new stamps go on from there.
 */
class PgReceiveTimeMigrationTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @Test
  void aVersion3DatabaseStampsItsBlocksInOrderNeverLaterThanTheMigration() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    FeedId feed = TestBlocks.feedId();
    long farFuture = System.currentTimeMillis() + 10L * 365 * 24 * 3600 * 1000;
    long[] timestamps = {5_000, 3_000, 9_000, farFuture};
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      OlderSchema.create(s, 3);
      // Rows as code of schema version 3 wrote them: authors' clocks out of order, one far ahead.
      s.execute("INSERT INTO spaces (space_id, server_token, feed_count, max_position) VALUES ('s', 't', 1, 4)");
      s.execute("INSERT INTO feeds (space_private_id, feed_id) SELECT space_private_id, '" + feed.value()
          + "' FROM spaces");
      for (int sequence = 0; sequence < timestamps.length; sequence++) {
        int checksum = BlockChecksum.of(feed.value(), "a", sequence, null, 0, timestamps[sequence], new byte[] {0});
        s.execute("INSERT INTO blocks (space_private_id, position, feed_private_id, sequence, actor_id, timestamp,"
            + " data, checksum) SELECT f.space_private_id, " + (sequence + 1) + ", f.feed_private_id, " + sequence
            + ", 'a', " + timestamps[sequence] + ", '\\x00'::bytea, " + checksum + " FROM feeds f");
      }
    }
    long before = System.currentTimeMillis();
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      long after = System.currentTimeMillis();
      List<Block> blocks = store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10));
      assertEquals(4, blocks.size(), "every block is kept");
      assertEquals(5_000, blocks.get(0).receivedAt().orElseThrow());
      assertEquals(5_000, blocks.get(1).receivedAt().orElseThrow(), "raised to the stamp before it");
      assertEquals(9_000, blocks.get(2).receivedAt().orElseThrow());
      long last = blocks.get(3).receivedAt().orElseThrow();
      assertTrue(last >= before - 1_000 && last <= after + 1_000,
          "the far future is held to the migration's time, was " + last);
      Long next = store.write(tx -> tx.blocks().stampReceipt(SPACE, 1));
      assertEquals(last, next, "new stamps go on from the last");
      assertEquals(Position.of(2), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 9_000)));
    }
  }
}
