package dev.feedstore.sqlite;

import static dev.feedstore.core.testing.TestBlocks.after;
import static dev.feedstore.core.testing.TestBlocks.block;
import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.testing.ForeignDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteFileTest {
  private static final SpaceId SPACE = new SpaceId("s");

  @TempDir Path dir;

  @Test
  void fileClosedAndReopenedReturnsExactlyWhatWasWritten() {
    Path file = dir.resolve("reopen.db");
    FeedId feed = TestBlocks.feedId();
    List<Block> written = new ArrayList<>();
    Block first = positioned(feed, "alice", 0, 1);
    written.add(first);
    written.add(after(first, "bob", 1).withPosition(Position.of(2)));
    written.add(Block.unpositioned(TestBlocks.key(feed, "carol", 2), Optional.empty(), Long.MAX_VALUE,
        BlockData.copyOf(new byte[] {0, -1, 127, -128, 0})));
    written.add(Block.unpositioned(TestBlocks.key(feed, "dave", 3), Optional.empty(), 0, BlockData.EMPTY));
    written.add(Block.unpositioned(TestBlocks.key(feed, "erin", 4), Optional.empty(), 5, TestBlocks.bytes(1 << 20)));
    ServerToken token;
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      token = store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.of(new Namespace("notes")));
        written.forEach(b -> tx.blocks().insert(SPACE, b));
        return tx.serverTokens().findOrCreate(SPACE);
      });
    }
    assertTrue(Files.exists(file));
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      List<Block> read = store.read(tx -> tx.blocks().feed(SPACE, feed));
      assertEquals(written, read);
      assertArrayEquals(written.get(2).data().toByteArray(), read.get(2).data().toByteArray());
      assertEquals(Optional.of(new Namespace("notes")), store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().namespace());
      assertEquals(Optional.of(token), store.read(tx -> tx.serverTokens().find(SPACE)));
    }
  }

  @Test
  void fileWithANewerSchemaIsRefusedAndLeftUnchanged() throws Exception {
    Path file = dir.resolve("newer.db");
    SqliteFeedStore.open(file).close();
    int newer = SqliteFeedStore.schemaVersion() + 1;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = " + newer);
    }
    byte[] before = Files.readAllBytes(file);
    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class, () -> SqliteFeedStore.open(file));
    assertTrue(e.getMessage().contains("schema version " + newer + ", newer than this code supports ("
        + SqliteFeedStore.schemaVersion() + ")"), e.getMessage());
    assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void databaseOfAnotherApplicationIsRefused() throws Exception {
    Path file = dir.resolve("foreign.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
    }
    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class, () -> SqliteFeedStore.open(file));
    assertTrue(e.getMessage().contains("another application"), e.getMessage());
  }

  @Test
  void databaseOfAnotherApplicationIsLeftByteIdenticalWithNoCompanionFiles() throws Exception {
    Path file = ForeignDatabase.create(dir.resolve("other-app.db"));
    byte[] before = Files.readAllBytes(file);

    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class, () -> SqliteFeedStore.open(file));

    assertTrue(e.getMessage().contains("it was not changed"), e.getMessage());
    ForeignDatabase.assertUntouched(file, before);
  }

  @Test
  void aFileThatIsNotADatabaseIsRefusedNamingItAndLeftUnchanged() throws Exception {
    Path file = dir.resolve("notes.txt");
    Files.writeString(file, "these are not the pages of a SQLite database, but they are long enough to look like a"
        + " header of one: ".repeat(20));
    byte[] before = Files.readAllBytes(file);

    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class, () -> SqliteFeedStore.open(file));

    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("is not a SQLite database"), e.getMessage());
    ForeignDatabase.assertUntouched(file, before);
  }

  @Test
  void aFileInADirectoryThatDoesNotExistIsRefusedSayingSo() {
    Path missing = dir.resolve("no-such-dir");
    Path file = missing.resolve("feeds.db");

    StoreException e = assertThrows(StoreException.class, () -> SqliteFeedStore.open(file));

    assertTrue(e.getMessage().contains("its directory " + missing + " does not exist; create it first"), e.getMessage());
    assertTrue(Files.notExists(missing), "nothing was created");
  }

  @Test
  void aPathThatIsADirectoryIsRefusedSayingSo() {
    StoreException e = assertThrows(StoreException.class, () -> SqliteFeedStore.open(dir));

    assertTrue(e.getMessage().contains("cannot open database file " + dir + ": it is a directory; give the path of a"
        + " file in it, for example " + dir.resolve("feeds.db")), e.getMessage());
  }

  @Test
  void databaseEnforcesUniquenessOfFeedPositionAndOfKeyWithAClearError() throws Exception {
    Path file = dir.resolve("unique.db");
    FeedId feed = TestBlocks.feedId();
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.empty());
        tx.blocks().insert(SPACE, positioned(feed, "a", 0, 1));
        return null;
      });
    }
    // Bypass the store: the schema itself must refuse duplicates.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      SQLException samePosition = assertThrows(SQLException.class, () -> s.execute(
          "INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp, data)"
              + " SELECT space_private_id, feed_private_id, 1, 7, 'b', 0, x'' FROM blocks"));
      // Positions are unique per space, which makes them unique per feed too; both indexes exist.
      assertTrue(samePosition.getMessage().contains("UNIQUE constraint failed: blocks.space_private_id, blocks.position"),
          samePosition.getMessage());
      assertEquals(List.of("feed_private_id", "position"), uniqueIndexColumns(s, "blocks_feed_position_unique"));
      assertEquals(List.of("space_private_id", "position"), uniqueIndexColumns(s, "blocks_space_position_unique"));
      assertEquals(List.of("feed_private_id", "sequence", "actor_id"), uniqueIndexColumns(s, "blocks_key_unique"));
      SQLException sameKey = assertThrows(SQLException.class, () -> s.execute(
          "INSERT INTO blocks (space_private_id, feed_private_id, position, sequence, actor_id, timestamp, data)"
              + " SELECT space_private_id, feed_private_id, NULL, 0, 'a', 0, x'' FROM blocks"));
      assertTrue(sameKey.getMessage().contains(
          "UNIQUE constraint failed: blocks.feed_private_id, blocks.sequence, blocks.actor_id"), sameKey.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM blocks")) {
        rs.next();
        assertEquals(1, rs.getInt(1));
      }
    }
  }

  @Test
  void storeRunsInWalModeWithForeignKeys() throws Exception {
    Path file = dir.resolve("wal.db");
    try (SqliteFeedStore store = SqliteFeedStore.open(file);
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      assertEquals("wal", rs.getString(1));
      assertThrows(SQLException.class, () -> {
        s.execute("PRAGMA foreign_keys = ON");
        s.execute("INSERT INTO feeds (space_private_id, feed_id) VALUES (999, 'x')");
      });
    }
  }

  @Test
  void readersSeeCommittedStateWhileAWriteIsOpen() throws Exception {
    FeedId feed = TestBlocks.feedId();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("concurrent.db"))) {
      store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.empty());
        tx.blocks().insert(SPACE, positioned(feed, "a", 0, 1));
        return null;
      });
      CountDownLatch writing = new CountDownLatch(1);
      CountDownLatch readDone = new CountDownLatch(1);
      ExecutorService executor = Executors.newSingleThreadExecutor();
      try {
        Future<?> writer = executor.submit(() -> store.write(tx -> {
          tx.blocks().insert(SPACE, positioned(feed, "a", 1, 2));
          writing.countDown();
          await(readDone);
          return null;
        }));
        await(writing);
        assertEquals(1, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
        readDone.countDown();
        writer.get(10, TimeUnit.SECONDS);
        assertEquals(2, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
      } finally {
        executor.shutdownNow();
      }
    }
  }

  @Test
  void writesDoNotNest() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("nest.db"))) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> store.write(tx -> store.write(inner -> null)));
      assertTrue(e.getMessage().contains("do not nest"), e.getMessage());
      assertEquals(List.of(), store.read(tx -> tx.feeds().spaces()));
    }
  }

  @Test
  void closedStoreRefusesWork() {
    SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("closed.db"));
    store.close();
    store.close();
    StoreException e = assertThrows(StoreException.class, () -> store.read(tx -> tx.feeds().spaces()));
    assertTrue(e.getMessage().contains("is closed"), e.getMessage());
  }

  @Test
  void readTransactionsCannotWrite() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("readonly.db"))) {
      assertThrows(StoreException.class,
          () -> store.read(tx -> tx.feeds().create(SPACE, TestBlocks.feedId(), Optional.empty())));
      assertEquals(List.of(), store.read(tx -> tx.feeds().spaces()));
    }
  }

  @Test
  void onlineBackupIsACompleteStore() {
    FeedId feed = TestBlocks.feedId();
    Path copy = dir.resolve("copy.db");
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("live.db"))) {
      ServerToken token = store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.empty());
        tx.blocks().insert(SPACE, positioned(feed, "a", 0, 1));
        tx.blocks().insert(SPACE, block(feed, "a", 1));
        return tx.serverTokens().findOrCreate(SPACE);
      });
      store.backupTo(copy);
      store.write(tx -> tx.blocks().insert(SPACE, positioned(feed, "a", 2, 2)));
      try (SqliteFeedStore restored = SqliteFeedStore.open(copy)) {
        assertEquals(2, restored.read(tx -> tx.blocks().feed(SPACE, feed)).size());
        assertEquals(Optional.of(token), restored.read(tx -> tx.serverTokens().find(SPACE)));
        assertEquals(1L, restored.<Long>read(tx -> tx.blocks().countUnpositioned(SPACE, Scope.WHOLE_SPACE)));
      }
    }
  }

  private static List<String> uniqueIndexColumns(Statement s, String index) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT \"unique\" FROM pragma_index_list('blocks') WHERE name = '" + index + "'")) {
      assertTrue(rs.next(), "index " + index + " exists");
      assertEquals(1, rs.getInt(1), "index " + index + " is unique");
    }
    List<String> columns = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT name FROM pragma_index_info('" + index + "') ORDER BY seqno")) {
      while (rs.next()) {
        columns.add(rs.getString(1));
      }
    }
    return columns;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
