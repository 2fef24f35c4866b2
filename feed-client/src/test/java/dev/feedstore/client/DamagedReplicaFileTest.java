package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.DamagedStoreException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.testing.PageDamage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica's closed file with a page of its blocks table overwritten (a torn write, a bad sector):
 * opening it is refused with a typed exception naming the file and what to do, the file is left as
 * it was, and the path can be used again once the file is moved aside.
 */
class DamagedReplicaFileTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final ActorId ALICE = ActorId.of("alice");

  @TempDir Path dir;

  /** A replica file holding 2,000 blocks of 200 bytes, closed. */
  private Path replicaFile() {
    Path file = dir.resolve("alice.db");
    try (Replica alice = Replica.open(file, ALICE)) {
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      List<BlockData> data = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        data.add(TestBlocks.bytes(200));
      }
      alice.append(SPACE, feed, data);
    }
    return file;
  }

  @Test
  void aFileWithADamagedPageIsRefusedAtOpenAndLeftAsItWas() throws Exception {
    Path file = replicaFile();
    PageDamage.overwriteLeafOf(file, "blocks");
    byte[] before = Files.readAllBytes(file);

    DamagedStoreException refused = assertThrows(DamagedStoreException.class, () -> Replica.open(file, ALICE));

    assertEquals(file.toAbsolutePath(), refused.file());
    assertTrue(refused.getMessage().startsWith("database file " + file.toAbsolutePath() + " is damaged: SQLite's"
        + " quick_check found "), refused.getMessage());
    assertTrue(refused.getMessage().contains("restore the file from a backup, or move it with its -wal and -shm"
        + " aside"), refused.getMessage());
    assertTrue(refused.problems().stream().anyMatch(problem -> problem.contains("blocks")), refused.toString());
    assertArrayEquals(before, Files.readAllBytes(file), "nothing was written to the damaged file");

    Files.move(file, dir.resolve("alice.damaged.db"));
    try (Replica fresh = Replica.open(file, ALICE)) {
      assertEquals(List.of(), fresh.feeds(SPACE), "the path is free for a new replica once the file is moved aside");
    }
  }

  @Test
  void aFileWhoseBlocksRootPageIsDamagedIsRefusedAtOpen() {
    Path file = replicaFile();
    int root = PageDamage.overwriteRootOf(file, "blocks");

    DamagedStoreException refused = assertThrows(DamagedStoreException.class, () -> Replica.open(file, ALICE));

    assertTrue(refused.getMessage().contains("page " + root + ": btreeInitPage() returns error code 11"),
        refused.getMessage());
  }

  @Test
  void aCheckOfZeroOpensTheFileUnchecked() {
    Path file = replicaFile();
    PageDamage.overwriteLeafOf(file, "blocks");

    try (Replica unchecked = Replica.builder(file).actorId(ALICE).quickCheck(Duration.ZERO).build()) {
      assertEquals(1, unchecked.feeds(SPACE).size());
    }
  }

  @Test
  void aNegativeCheckTimeIsRefusedNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Replica.builder(dir.resolve("x.db")).quickCheck(Duration.ofMillis(-1)));
    assertEquals("quickCheck must be >= 0 (0 skips the check), was PT-0.001S", e.getMessage());
  }
}
