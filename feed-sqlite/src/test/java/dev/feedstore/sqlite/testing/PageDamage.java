package dev.feedstore.sqlite.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Optional;

/**
 * Damages a b-tree page of a table in a closed store's file, as a torn write or a bad disk sector
 * would: the first bytes of one leaf page of the table (its header and cell pointers) are
 * overwritten. The page is found with SQLite's {@code dbstat} table.
 */
public final class PageDamage {
  /** How many bytes of the page are overwritten: one disk sector. */
  public static final int DAMAGED_BYTES = 512;

  private PageDamage() {}

  /**
   * Writes a store of {@code blocks} positioned blocks (space {@code s}, one feed, 200 bytes of data
   * each) to {@code file}, closes it and damages a leaf page of its {@code blocks} table; returns the
   * page's number.
   */
  public static int damagedStore(Path file, int blocks) {
    writeStore(file, blocks);
    return overwriteLeafOf(file, "blocks");
  }

  /**
   * Writes a store as {@link #damagedStore} does and damages the root page of its {@code blocks}
   * table, the page every read and write of a block starts at; returns the page's number.
   */
  public static int storeWithDamagedRoot(Path file, int blocks) {
    writeStore(file, blocks);
    return overwriteRootOf(file, "blocks");
  }

  private static void writeStore(Path file, int blocks) {
    FeedId feed = TestBlocks.feedId();
    SpaceId space = SpaceId.of("s");
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      store.write(tx -> {
        tx.feeds().create(space, feed, Optional.empty());
        for (int i = 0; i < blocks; i++) {
          Block block = Block.unpositioned(TestBlocks.key(feed, "a", i), Optional.empty(), i, TestBlocks.bytes(200));
          tx.blocks().insert(space, block.withPosition(Position.of(i + 1)));
        }
        return null;
      });
    }
  }

  /**
   * Overwrites the start of a leaf page of {@code table} (the middle one of its leaves) in {@code
   * file}, which must be closed with its WAL folded back; returns the page's number.
   */
  public static int overwriteLeafOf(Path file, String table) {
    return overwrite(file, "a leaf page of " + table, s -> {
      int leaves = intOf(s, "SELECT count(*) FROM dbstat WHERE name = '" + table + "' AND pagetype = 'leaf'");
      if (leaves < 2) {
        throw new IllegalStateException(table + " has " + leaves + " leaf pages; write more rows first");
      }
      return intOf(s, "SELECT pageno FROM dbstat WHERE name = '" + table + "' AND pagetype = 'leaf' ORDER BY pageno"
          + " LIMIT 1 OFFSET " + leaves / 2);
    });
  }

  /**
   * Overwrites the start of the root page of {@code table} (or index) in {@code file}, which must be
   * closed with its WAL folded back, so that SQLite cannot read it as a b-tree page at all; returns
   * the page's number.
   */
  public static int overwriteRootOf(Path file, String table) {
    return overwrite(file, "the root page of " + table,
        s -> intOf(s, "SELECT rootpage FROM sqlite_schema WHERE name = '" + table + "'"));
  }

  /** Finds a page's number with SQL. */
  private interface PageFinder {
    int find(Statement statement) throws SQLException;
  }

  /** Overwrites the first {@value #DAMAGED_BYTES} bytes of the page {@code finder} finds; returns its number. */
  private static int overwrite(Path file, String what, PageFinder finder) {
    int page;
    int pageSize;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      pageSize = intOf(s, "PRAGMA page_size");
      page = finder.find(s);
    } catch (SQLException e) {
      throw new IllegalStateException("finding " + what + " in " + file, e);
    }
    byte[] garbage = new byte[DAMAGED_BYTES];
    Arrays.fill(garbage, (byte) 0xA5);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(garbage), (long) (page - 1) * pageSize);
      channel.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return page;
  }

  private static int intOf(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
