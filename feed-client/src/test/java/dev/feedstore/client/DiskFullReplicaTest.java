package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SmallDisk;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose file lives on a small file system of its own (a tmpfs) that fills up: appends,
 * {@code createFeed} and a pull fail as a full disk naming the file, and once space is freed the
 * same open replica appends, creates feeds and syncs again, with nothing it held lost.
 */
class DiskFullReplicaTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final Optional<Namespace> NOTES = Optional.of(Namespace.of("notes"));

  @TempDir Path dir;

  @Test
  void aReplicaOnAFullDiskAppendsCreatesFeedsAndSyncsAgainOnceSpaceIsFreedWithoutReopening() throws Exception {
    Path small = Files.createDirectory(dir.resolve("small"));
    try (RestartableServer authority = RestartableServer.inProcess(Files.createDirectory(dir.resolve("authority")));
        Replicas replicas = new Replicas(dir);
        SmallDisk disk = SmallDisk.mount(small, 16 << 20);
        Replica alice = Replica.open(small.resolve("alice.db"), ActorId.of("alice"))) {
      // Three times what the replica will fill: freed, it leaves room for the WAL's checkpoint too.
      disk.reserve(12 << 20);
      Replica bob = replicas.open("bob");
      SyncDriver<Replica> sync = Replicas.driver(authority.channel(), SPACE);
      FeedId mine = alice.createFeed(SPACE, NOTES, Replication.fullHistory());
      FeedId theirs = bob.createFeed(SPACE, NOTES, Replication.fullHistory());
      alice.replicate(SPACE, theirs, NOTES, Replication.fullHistory());

      List<BlockKey> held = new ArrayList<>(fill(alice, mine, 32 * 1024));
      // A failed commit leaves WAL space behind that small commits still fit in: fill that too,
      // with blocks no larger than the one that must then fail.
      held.addAll(fill(alice, mine, 8));
      assertFull(alice, assertThrows(StorageFaultException.class,
          () -> alice.append(SPACE, mine, BlockData.utf8("one more"))));
      assertFull(alice, assertThrows(StorageFaultException.class,
          () -> alice.createFeed(SPACE, NOTES, Replication.fullHistory())));
      List<BlockData> bobs = List.of(TestBlocks.bytes(32 * 1024), TestBlocks.bytes(32 * 1024), BlockData.utf8("b"));
      bob.append(SPACE, theirs, bobs);
      sync.untilQuiet(10, bob);
      assertFull(alice, assertThrows(StorageFaultException.class, () -> sync.pull(alice)));
      assertEquals(held, keys(alice.read(SPACE, mine)), "reads work on a full disk, and nothing held is lost");

      disk.release();
      BlockKey after = alice.append(SPACE, mine, BlockData.utf8("after the disk was freed"));
      held.add(after);
      FeedId another = alice.createFeed(SPACE, NOTES, Replication.fullHistory());
      alice.append(SPACE, another, BlockData.utf8("in a feed made after"));
      sync.untilQuiet(20, alice, bob);

      assertEquals(held, keys(alice.read(SPACE, mine)));
      assertTrue(alice.read(SPACE, mine).stream().allMatch(Block::isPositioned), "alice pushed all of hers");
      assertEquals(alice.read(SPACE, mine), authority.store().read(tx -> tx.blocks().feed(SPACE, mine)));
      assertEquals(bob.read(SPACE, theirs), alice.read(SPACE, theirs), "alice pulled bob's blocks");
      assertEquals(1, authority.store().read(tx -> tx.blocks().feed(SPACE, another)).size());
    }
  }

  /**
   * Appends blocks of {@code bytes} until the disk is full: until appends fail three times in a
   * row, since a failed commit can leave (or a checkpoint free) WAL space that the next small
   * commit fits in. Returns the keys of those appended.
   */
  private static List<BlockKey> fill(Replica replica, FeedId feed, int bytes) {
    List<BlockKey> appended = new ArrayList<>();
    int failedInARow = 0;
    while (failedInARow < 3) {
      try {
        appended.add(replica.append(SPACE, feed, TestBlocks.bytes(bytes)));
        failedInARow = 0;
      } catch (StorageFaultException e) {
        assertFull(replica, e);
        failedInARow++;
      }
      assertTrue(appended.size() < 100_000, "the disk fills up");
    }
    return appended;
  }

  private static void assertFull(Replica replica, StorageFaultException e) {
    assertEquals(StorageFaultException.Kind.FULL, e.kind(), e.getMessage());
    assertEquals(replica.file(), e.file());
    assertTrue(e.getMessage().startsWith("the disk holding " + replica.file() + " is full"), e.getMessage());
  }

  private static List<BlockKey> keys(List<Block> blocks) {
    return blocks.stream().map(Block::key).toList();
  }
}
