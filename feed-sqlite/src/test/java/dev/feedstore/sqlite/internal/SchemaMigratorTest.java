package dev.feedstore.sqlite.internal;

import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.testing.DiskFaults;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.feedstore.store.sqlite.SchemaMigrator;

class SchemaMigratorTest {
  private static final SpaceId SPACE = new SpaceId("s");

  @TempDir Path dir;

  @Test
  void olderFileIsMigratedForwardOnOpenAndKeepsItsData() throws Exception {
    Path file = dir.resolve("old.db");
    FeedId feed = TestBlocks.feedId();
    SchemaMigrator v1 = SchemaMigrator.builtIn();
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, v1)) {
      store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.empty());
        return tx.blocks().insert(SPACE, positioned(feed, "a", 0, 1));
      });
    }
    int next = v1.latestVersion() + 1;
    List<SchemaMigrator.Migration> steps = new ArrayList<>(v1.migrations());
    steps.add(new SchemaMigrator.Migration(next, "ALTER TABLE feeds ADD COLUMN title TEXT\n;\n"
        + "UPDATE feeds SET title = 'migrated'"));
    SchemaMigrator newer = new SchemaMigrator(steps);
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, newer)) {
      assertEquals(1, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      assertEquals(next, intOf(s, "PRAGMA user_version"));
      assertEquals(SchemaMigrator.APPLICATION_ID, intOf(s, "PRAGMA application_id"));
      try (ResultSet rs = s.executeQuery("SELECT title FROM feeds")) {
        rs.next();
        assertEquals("migrated", rs.getString(1));
      }
    }
  }

  @Test
  void aFailingMigrationLeavesTheFileAtItsOldVersion() throws Exception {
    Path file = dir.resolve("failing.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn()).close();
    SchemaMigrator builtIn = SchemaMigrator.builtIn();
    List<SchemaMigrator.Migration> steps = new ArrayList<>(builtIn.migrations());
    steps.add(new SchemaMigrator.Migration(builtIn.latestVersion() + 1,
        "CREATE TABLE extra (id INTEGER)\n;\nTHIS IS NOT SQL"));
    SchemaMigrator broken = new SchemaMigrator(steps);
    assertThrows(RuntimeException.class, () -> SqliteStore.open(file, SqliteSettings.DEFAULTS, broken));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      assertEquals(builtIn.latestVersion(), intOf(s, "PRAGMA user_version"));
      assertEquals(0, intOf(s, "SELECT count(*) FROM sqlite_master WHERE name = 'extra'"));
    }
  }

  @Test
  void aVersion1FileGainsTheHistoryChainColumns() throws Exception {
    Path file = dir.resolve("v1.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(List.of(SchemaMigrator.builtIn().migrations().get(0)))).close();
    FeedId feed = TestBlocks.feedId();
    // Rows as code of schema version 1 wrote them.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id) VALUES (1, 's')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id, block_count) VALUES (1, 1, '"
          + feed.value() + "', 1)");
      s.execute("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp, data)"
          + " VALUES (1, 1, 1, 0, 'a', 5, x'01')");
      assertEquals(1, intOf(s, "PRAGMA user_version"));
    }
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(java.util.OptionalLong.empty(),
          store.read(tx -> tx.blocks().chainAt(SPACE, dev.feedstore.core.Position.of(1))), "rows from before chains have none");
      assertEquals(1, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
      assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.syncStates().get(SPACE)).cursorChain());
    }
  }

  @Test
  void aVersion2FileGetsAChecksumForEveryBlockItHolds() throws Exception {
    Path file = dir.resolve("v2.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(SchemaMigrator.builtIn().migrations().subList(0, 2))).close();
    FeedId feed = TestBlocks.feedId();
    // Rows as code of schema version 2 wrote them: a positioned block with a chain, an unpublished
    // local block that follows it.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token) VALUES (1, 's', 'token')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id, block_count) VALUES (1, 1, '"
          + feed.value() + "', 2)");
      s.execute("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp,"
          + " data, published, chain) VALUES (1, 1, 1, 0, 'a', 5, CAST('first of v2' AS BLOB), 1, 77)");
      s.execute("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, prev_sequence,"
          + " prev_actor_id, timestamp, data, published) VALUES (1, 1, NULL, 1, 'a', 0, 'a', 6, x'00ff10', 0)");
      assertEquals(2, intOf(s, "PRAGMA user_version"));
    }
    Block first = new Block(TestBlocks.key(feed, "a", 0), Optional.empty(), 5, BlockData.utf8("first of v2"),
        Position.FIRST).withReceivedAt(5); // version 11 stamps it with its own timestamp
    Block second = new Block(TestBlocks.key(feed, "a", 1), Optional.of(Predecessor.of(first.key())), 6,
        BlockData.copyOf(new byte[] {0, -1, 16}), Position.NONE);

    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(List.of(first, second), store.read(tx -> tx.blocks().feed(SPACE, feed)),
          "every migrated block verifies");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      assertEquals(SchemaMigrator.builtIn().latestVersion(), intOf(s, "PRAGMA user_version"));
      assertEquals(0, intOf(s, "SELECT count(*) FROM blocks WHERE checksum IS NULL"));
    }
    DiskFaults.flipABitInside(file, "first of v2");
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class,
          () -> store.read(tx -> tx.blocks().feed(SPACE, feed)));
      assertEquals(first.key(), e.key());
    }
  }

  @Test
  void aVersion3FileKeepsItsTokensAndSubscriptionsCountsItsFeedsAndGainsASecretForNewTokens() throws Exception {
    Path file = dir.resolve("v3.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(SchemaMigrator.builtIn().migrations().subList(0, 3))).close();
    FeedId feed = TestBlocks.feedId();
    // Rows as code of schema version 3 wrote them.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token) VALUES (7, 's', 'stored-token')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (1, 7, '" + feed.value() + "')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (2, 7, '"
          + TestBlocks.feedId().value() + "')");
      s.execute("INSERT INTO subscriptions (subscription_id, space_private_id, ttl_ms, expires_at, feed_ids, namespaces)"
          + " VALUES ('sub', 7, 1000, 5000, '[\"" + feed.value() + "\"]', '[\"notes\"]')");
    }
    Path copy = dir.resolve("copy.db");
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(Optional.of(ServerToken.of("stored-token")), store.read(tx -> tx.serverTokens().find(SPACE)));
      assertEquals(ServerToken.of("stored-token"), store.read(tx -> tx.serverTokens().tokenOf(SPACE)));
      assertEquals(2L, store.<Long>read(tx -> tx.feeds().count(SPACE)), "feeds counted by the migration");
      Subscription subscription = store.read(tx -> tx.subscriptions().find("sub")).orElseThrow();
      assertEquals(new Subscription("sub", SPACE, new Scope.Selection(Set.of(feed), Set.of(Namespace.of("notes"))),
          1000, 5000), subscription);
      ServerToken unborn = store.read(tx -> tx.serverTokens().tokenOf(SpaceId.of("unborn")));
      store.backupTo(copy);
      try (SqliteStore copied = SqliteStore.open(copy, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
        assertEquals(unborn, copied.read(tx -> tx.serverTokens().tokenOf(SpaceId.of("unborn"))));
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      assertEquals(SchemaMigrator.builtIn().latestVersion(), intOf(s, "PRAGMA user_version"));
      assertEquals(32, intOf(s, "SELECT length(token_key) FROM store_secret"));
    }
  }

  @Test
  void aVersion5FileCountsEachSpacesPositionsFromTheBlocksItHolds() throws Exception {
    Path file = dir.resolve("v5.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(SchemaMigrator.builtIn().migrations().subList(0, 5))).close();
    FeedId feed = TestBlocks.feedId();
    // Rows as code of schema version 5 wrote them: positions 1 to 3 and an unpositioned block in one
    // space, another space with no block at all.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token, feed_count) VALUES (7, 's', 't', 1)");
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token) VALUES (8, 'empty', 'u')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (1, 7, '" + feed.value() + "')");
      for (int sequence = 0; sequence < 4; sequence++) {
        s.execute("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp, data)"
            + " VALUES (7, 1, " + (sequence == 3 ? "NULL" : sequence + 1) + ", " + sequence + ", 'a', 1, x'00')");
      }
    }
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(Position.of(3), store.write(tx -> tx.blocks().claimPositions(SPACE, 2)));
      assertEquals(Position.NONE, store.write(tx -> tx.blocks().claimPositions(SpaceId.of("empty"), 1)));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      assertEquals(SchemaMigrator.builtIn().latestVersion(), intOf(s, "PRAGMA user_version"));
      assertEquals(5, intOf(s, "SELECT max_position FROM spaces WHERE space_id = 's'"));
    }
  }

  @Test
  void aVersion10FileStampsItsBlocksInOrderNeverLaterThanTheMigrationAndKeepsItsPolicies() throws Exception {
    Path file = dir.resolve("v10.db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(SchemaMigrator.builtIn().migrations().subList(0, 10))).close();
    FeedId feed = TestBlocks.feedId();
    long farFuture = System.currentTimeMillis() + 10L * 365 * 24 * 3600 * 1000;
    // Rows as code of schema version 10 wrote them: authors' clocks out of order (3000 after 5000),
    // one far in the future, and an unpositioned block; a replica's policies of both kinds.
    long[] timestamps = {5_000, 3_000, 9_000, farFuture, 1_000};
    long before = System.currentTimeMillis();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token, feed_count, max_position)"
          + " VALUES (7, 's', 't', 1, 4)");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (1, 7, '" + feed.value() + "')");
      for (int sequence = 0; sequence < timestamps.length; sequence++) {
        int checksum = BlockChecksum.of(feed.value(), "a", sequence, null, 0, timestamps[sequence], new byte[] {0});
        s.execute("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp,"
            + " data, checksum) VALUES (7, 1, " + (sequence == 4 ? "NULL" : sequence + 1) + ", " + sequence
            + ", 'a', " + timestamps[sequence] + ", x'00', " + checksum + ")");
      }
      s.execute("INSERT INTO feed_replication (feed_private_id, mode, from_position) VALUES (1, 'from', 2)");
      s.execute("INSERT INTO space_replication (space_private_id, mode, from_position) VALUES (7, 'latest', 0)");
    }
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      long after = System.currentTimeMillis();
      List<Block> blocks = store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10));
      assertEquals(4, blocks.size(), "every positioned block is kept");
      assertEquals(5_000, blocks.get(0).receivedAt().orElseThrow());
      assertEquals(5_000, blocks.get(1).receivedAt().orElseThrow(), "raised to the stamp before it");
      assertEquals(9_000, blocks.get(2).receivedAt().orElseThrow());
      long last = blocks.get(3).receivedAt().orElseThrow();
      assertTrue(last >= before && last <= after, "the far future is held to the migration's time, was " + last);
      assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(feed, "a", 4)))
          .map(Block::receivedAt).filter(java.util.OptionalLong::isPresent), "an unpositioned block has no receive time");
      Long next = store.write(tx -> tx.blocks().stampReceipt(SPACE, 1));
      assertEquals(last, next, "new stamps go on from the last");
      assertEquals(Position.of(2), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 9_000)));
      assertEquals(dev.feedstore.core.Replication.from(Position.of(2)),
          store.read(tx -> tx.replication().feed(SPACE, feed)));
      assertEquals(dev.feedstore.core.Replication.LATEST, store.read(tx -> tx.replication().space(SPACE)));
    }
  }

  @Test
  void aVersion11FileCountsEveryFeedOfACompactedSpaceAsHavingLostBlocksUpToItsFloor() throws Exception {
    Path file = fileAtVersion(11);
    FeedId compacted = TestBlocks.feedId();
    FeedId whole = TestBlocks.feedId();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token, feed_count, max_position,"
          + " floor_position) VALUES (7, 's', 't', 1, 9, 5)");
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token, feed_count, max_position,"
          + " floor_position) VALUES (8, 'w', 'u', 1, 3, 0)");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (1, 7, '" + compacted.value()
          + "')");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id) VALUES (2, 8, '" + whole.value() + "')");
    }
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(5L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, compacted)),
          "which feeds an earlier compaction took blocks from is not known: it may have been any");
      assertEquals(0L, (long) store.read(tx -> tx.streams().removedUpTo(new SpaceId("w"), whole)));
    }
  }

  @Test
  void aVersion13FileKeepsTheSequencesOfEveryCompactedFeedAboveWhatItMayHaveLost() throws Exception {
    Path file = fileAtVersion(13);
    FeedId compacted = TestBlocks.feedId();
    FeedId whole = TestBlocks.feedId();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("INSERT INTO spaces (space_private_id, space_id, server_token, feed_count, max_position,"
          + " floor_position) VALUES (7, 's', 't', 2, 9, 5)");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id, removed_up_to) VALUES (1, 7, '"
          + compacted.value() + "', 5)");
      s.execute("INSERT INTO feeds (feed_private_id, space_private_id, feed_id, removed_up_to) VALUES (2, 7, '"
          + whole.value() + "', 0)");
    }
    try (SqliteStore store = SqliteStore.open(file, SqliteSettings.DEFAULTS, SchemaMigrator.builtIn())) {
      assertEquals(java.util.OptionalLong.of(4), store.read(tx -> tx.streams().maxSequence(SPACE, compacted)),
          "blocks at positions 1 to 5 had sequences below 5");
      assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.streams().maxSequence(SPACE, whole)));
    }
  }

  void migrationsMustBeNumberedInOrder() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SchemaMigrator(List.of(new SchemaMigrator.Migration(2, "x"))));
    assertTrue(e.getMessage().contains("numbered 1, 2, 3"), e.getMessage());
  }

  /** A new file of the built-in schema up to {@code version}, as code of that version made it. */
  private Path fileAtVersion(int version) {
    Path file = dir.resolve("v" + version + ".db");
    SqliteStore.open(file, SqliteSettings.DEFAULTS,
        new SchemaMigrator(SchemaMigrator.builtIn().migrations().subList(0, version))).close();
    return file;
  }

  private static int intOf(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
