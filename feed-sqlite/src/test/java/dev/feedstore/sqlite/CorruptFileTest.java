package dev.feedstore.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.testing.DiskFaults;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bits that change in a closed store file, where SQLite's own checks do not look. */
class CorruptFileTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;

  private final FeedId feed = TestBlocks.feedId();

  /** Blocks 1..3 positioned, 4 unpositioned; each block's data is "marker-N-" and padding. */
  private Path storeWithFourBlocks() {
    Path file = dir.resolve("feeds.db");
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      store.write(tx -> {
        tx.feeds().create(SPACE, feed, Optional.empty());
        for (int i = 1; i <= 4; i++) {
          Block block = Block.unpositioned(TestBlocks.key(feed, "a", i), Optional.empty(), i,
              BlockData.utf8("marker-" + i + "-" + "x".repeat(40)));
          tx.blocks().insert(SPACE, i < 4 ? block.withPosition(Position.of(i)) : block);
        }
        return null;
      });
    }
    return file;
  }

  @Test
  void aBitFlippedInsideABlocksDataPassesIntegrityCheckButFailsEveryReadOfThatBlock() throws Exception {
    Path file = storeWithFourBlocks();
    assertEquals(1, DiskFaults.flipABitInside(file, "marker-2-" + "x".repeat(40)));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
      rs.next();
      assertEquals("ok", rs.getString(1), "SQLite does not see it");
    }

    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class,
          () -> store.read(tx -> tx.blocks().feed(SPACE, feed)));
      assertEquals(TestBlocks.key(feed, "a", 2), e.key());
      assertEquals(Position.of(2), e.position());
      assertEquals(SPACE, e.spaceId());
      assertTrue(e.getMessage().contains(
          "block (space s, feed " + feed + ", actor a, sequence 2, position 2) is corrupt"), e.getMessage());
      assertThrows(CorruptBlockException.class,
          () -> store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.of(1), 1)));

      assertEquals(List.of(3L), store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.of(2), 10))
          .stream().map(b -> b.position().value()).toList());
      assertEquals("marker-1-" + "x".repeat(40),
          store.read(tx -> tx.blocks().atPosition(SPACE, Position.FIRST)).orElseThrow().data().toStringUtf8());
    }
  }

  @Test
  void aCorruptUnpositionedBlockIsReportedWithoutAPosition() {
    Path file = storeWithFourBlocks();
    DiskFaults.flipABitInside(file, "marker-4-");
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class,
          () -> store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10)));
      assertEquals(TestBlocks.key(feed, "a", 4), e.key());
      assertEquals(Position.NONE, e.position());
      assertTrue(e.getMessage().contains("sequence 4, unpositioned) is corrupt"), e.getMessage());
      assertEquals(3, store.read(tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10)).size());
    }
  }
}
