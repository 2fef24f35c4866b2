package dev.feedstore.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.testing.SmallDisk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store on a small file system of its own (a tmpfs) that fills up: the commit that does not fit
 * fails as a full disk naming the file, later writes fail the same way (not on a statement the
 * driver closed), and once space is freed the same open store writes again and holds everything
 * it committed.
 */
class DiskFullTest {
  private static final SpaceId SPACE = new SpaceId("s");

  @TempDir Path dir;

  @Test
  void aStoreOnAFullDiskWritesAgainOnceSpaceIsFreedAndKeepsWhatItCommitted() {
    try (SmallDisk disk = SmallDisk.mount(dir, 16 << 20)) {
      // Three times what the store will fill: freed, it leaves room for a checkpoint of a WAL that
      // holds all of it (a full checkpoint asks for the growth of the file plus a margin).
      disk.reserve(12 << 20);
      Path file = disk.dir().resolve("feeds.db");
      FeedId feed = TestBlocks.feedId();
      List<Block> committed;
      try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
        store.write(tx -> tx.feeds().create(SPACE, feed, Optional.empty()));
        committed = fill(store, feed);

        for (int attempt = 0; attempt < 3; attempt++) {
          Block next = block(feed, committed.size());
          assertFull(file, assertThrows(StorageFaultException.class,
              () -> store.write(tx -> tx.blocks().insert(SPACE, next))));
        }
        assertFull(file, assertThrows(StorageFaultException.class, store::probeWrite));
        assertEquals(committed, store.read(tx -> tx.blocks().feed(SPACE, feed)), "reads work on a full disk");

        disk.release();
        store.probeWrite();
        Block next = block(feed, committed.size());
        store.write(tx -> tx.blocks().insert(SPACE, next));
        committed.add(next);
        assertEquals(committed, store.read(tx -> tx.blocks().feed(SPACE, feed)));
        store.write(tx -> tx.serverTokens().findOrCreate(new SpaceId("new")));
        assertTrue(store.read(tx -> tx.serverTokens().find(new SpaceId("new"))).isPresent());
      }
      try (SqliteFeedStore reopened = SqliteFeedStore.open(file)) {
        assertEquals(committed, reopened.read(tx -> tx.blocks().feed(SPACE, feed)));
      }
    }
  }

  @Test
  void theProbeFailsOnAFullDiskAndSucceedsOnceSpaceIsFreed() {
    try (SmallDisk disk = SmallDisk.mount(dir, 4 << 20)) {
      Path file = disk.dir().resolve("feeds.db");
      try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
        FeedId feed = TestBlocks.feedId();
        store.write(tx -> tx.feeds().create(SPACE, feed, Optional.empty()));
        store.write(tx -> tx.blocks().insert(SPACE, block(feed, 0)));
        store.probeWrite();
        disk.fill();
        assertFull(file, assertThrows(StorageFaultException.class, store::probeWrite));
        disk.release();
        store.probeWrite();
      }
    }
  }

  @Test
  void positionsWhoseCommitTheFullDiskRefusedAreHandedOutAgainAfterTheLastCommittedOne() {
    try (SmallDisk disk = SmallDisk.mount(dir, 16 << 20)) {
      disk.reserve(12 << 20);
      Path file = disk.dir().resolve("feeds.db");
      FeedId feed = TestBlocks.feedId();
      List<Block> committed;
      try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
        store.write(tx -> tx.feeds().create(SPACE, feed, Optional.empty()));
        committed = untilFull(file, next -> {
          Block positioned = store.write(tx -> claimAndInsert(tx, block(feed, next)));
          return List.of(positioned);
        });
        assertEquals(committed.size(), store.read(tx -> tx.blocks().maxPosition(SPACE)).value(),
            "the refused commits claimed nothing");

        disk.release();
        Block after = store.write(tx -> claimAndInsert(tx, block(feed, committed.size())));
        assertEquals(committed.size() + 1, after.position().value(), "the first position no commit kept");
        committed.add(after);
      }
      try (SqliteFeedStore reopened = SqliteFeedStore.open(file)) {
        assertEquals(committed, reopened.read(tx -> tx.blocks().feed(SPACE, feed)));
      }
    }
  }

  @Test
  void aWalLargerThanTheSpaceFreedKeepsWritesRefusedSayingHowMuchToFreeWithoutTakingWhatWasFreed()
      throws Exception {
    try (SmallDisk disk = SmallDisk.mount(dir, 48 << 20)) {
      disk.reserve(8 << 20);
      disk.reserve(8 << 20);
      Path file = disk.dir().resolve("feeds.db");
      Path wal = disk.dir().resolve("feeds.db-wal");
      FeedId feed = TestBlocks.feedId();
      List<Block> committed;
      try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
        store.write(tx -> tx.feeds().create(SPACE, feed, Optional.empty()));
        committed = untilFull(file, next -> store.write(tx -> insertAll(tx, batch(feed, next))));
        long walBytes = Files.size(wal);
        assertTrue(walBytes > 8 << 20, "the WAL holds more than the first ballast: " + walBytes);

        disk.releaseOldest();
        long freed = disk.usableBytes();
        StorageFaultException stillFull = assertThrows(StorageFaultException.class, store::probeWrite);
        assertFull(file, stillFull);
        List<Block> next = batch(feed, committed.size());
        assertFull(file, assertThrows(StorageFaultException.class, () -> store.write(tx -> insertAll(tx, next))));
        Matcher needed = Pattern.compile("free at least (\\d+) MB").matcher(stillFull.getMessage());
        assertTrue(needed.find(), stillFull.getMessage());
        assertTrue(stillFull.getMessage().contains(file.getFileName() + "-wal"), stillFull.getMessage());
        assertEquals(freed, disk.usableBytes(), "the space freed is kept for the copy of the WAL, not taken by"
            + " a part of it");
        assertTrue(Long.parseLong(needed.group(1)) * 1_000_000 <= 8 << 20, "the second ballast is enough: "
            + stillFull.getMessage());
        assertEquals(committed, store.read(tx -> tx.blocks().feed(SPACE, feed)), "reads work meanwhile");

        disk.releaseOldest();
        store.probeWrite();
        store.write(tx -> insertAll(tx, next));
        committed.addAll(next);
        assertEquals(committed, store.read(tx -> tx.blocks().feed(SPACE, feed)));
      }
      try (SqliteFeedStore reopened = SqliteFeedStore.open(file)) {
        assertEquals(committed, reopened.read(tx -> tx.blocks().feed(SPACE, feed)));
      }
    }
  }

  /**
   * Runs {@code write} (given how many blocks were committed so far) until the disk refuses it three
   * times in a row, since a refused commit can leave WAL space that the next one fits in; returns
   * the blocks the writes committed.
   */
  private static List<Block> untilFull(Path file, java.util.function.IntFunction<List<Block>> write) {
    List<Block> committed = new ArrayList<>();
    int refused = 0;
    while (refused < 3) {
      try {
        committed.addAll(write.apply(committed.size()));
        refused = 0;
      } catch (StorageFaultException e) {
        assertFull(file, e);
        refused++;
      }
      assertTrue(committed.size() < 10_000, "the disk fills up");
    }
    return committed;
  }

  /** Eight blocks of 32 KiB, sequences {@code from..from+7}. */
  private static List<Block> batch(FeedId feed, int from) {
    List<Block> blocks = new ArrayList<>();
    for (int i = from; i < from + 8; i++) {
      blocks.add(block(feed, i));
    }
    return blocks;
  }

  private static List<Block> insertAll(dev.feedstore.core.store.StoreTransaction tx, List<Block> blocks) {
    blocks.forEach(block -> tx.blocks().insert(SPACE, block));
    return blocks;
  }

  /** Claims the next position of the space and stores the block there, as an authority's append does. */
  private static Block claimAndInsert(dev.feedstore.core.store.StoreTransaction tx, Block block) {
    Block positioned = block.withPosition(Position.of(tx.blocks().claimPositions(SPACE, 1).value() + 1));
    tx.blocks().insert(SPACE, positioned);
    return positioned;
  }

  /** Appends blocks of 32 KiB, one per transaction, until the disk is full; returns those committed. */
  static List<Block> fill(SqliteFeedStore store, FeedId feed) {
    List<Block> committed = new ArrayList<>();
    while (true) {
      Block block = block(feed, committed.size());
      try {
        store.write(tx -> tx.blocks().insert(SPACE, block));
        committed.add(block);
      } catch (StorageFaultException e) {
        assertFull(store.file(), e);
        return committed;
      }
      assertTrue(committed.size() < 1000, "the disk fills up");
    }
  }

  static void assertFull(Path file, StorageFaultException e) {
    assertEquals(StorageFaultException.Kind.FULL, e.kind(), e.getMessage());
    assertEquals(file.toAbsolutePath(), e.file());
    assertTrue(e.getMessage().startsWith("the disk holding " + file.toAbsolutePath() + " is full: free space on it"),
        e.getMessage());
  }

  private static Block block(FeedId feed, int sequence) {
    return Block.unpositioned(TestBlocks.key(feed, "a", sequence), Optional.empty(), 1_000 + sequence,
        TestBlocks.bytes(32 * 1024));
  }
}
