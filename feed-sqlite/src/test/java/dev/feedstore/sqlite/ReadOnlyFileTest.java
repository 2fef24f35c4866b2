package dev.feedstore.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.testing.ReadOnlyFile;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose file cannot be written (a read-only bind mount, which holds for root too): it opens
 * and reads, every write and the write probe fail as a read-only file naming it, and once the file
 * is writable again the same open store writes.
 */
class ReadOnlyFileTest {
  private static final SpaceId SPACE = new SpaceId("s");

  @TempDir Path dir;

  @Test
  void writesToAReadOnlyFileFailNamingItAndWorkOnceItIsWritableAgain() {
    Path file = dir.resolve("feeds.db");
    FeedId feed = TestBlocks.feedId();
    try (SqliteFeedStore store = SqliteFeedStore.open(file)) {
      store.write(tx -> tx.feeds().create(SPACE, feed, Optional.empty()));
      store.write(tx -> tx.blocks().insert(SPACE, TestBlocks.block(feed, "a", 0)));
    }
    try (ReadOnlyFile readOnly = ReadOnlyFile.of(file); SqliteFeedStore store = SqliteFeedStore.open(file)) {
      assertEquals(1, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
      assertReadOnly(file, assertThrows(StorageFaultException.class,
          () -> store.write(tx -> tx.blocks().insert(SPACE, TestBlocks.block(feed, "a", 1)))));
      assertReadOnly(file, assertThrows(StorageFaultException.class, store::probeWrite));

      readOnly.close();
      store.probeWrite();
      store.write(tx -> tx.blocks().insert(SPACE, TestBlocks.block(feed, "a", 1)));
      assertEquals(2, store.read(tx -> tx.blocks().feed(SPACE, feed)).size());
    }
  }

  private static void assertReadOnly(Path file, StorageFaultException e) {
    assertEquals(StorageFaultException.Kind.READ_ONLY, e.kind(), e.getMessage());
    assertEquals(file.toAbsolutePath(), e.file());
    assertTrue(e.getMessage().startsWith(file.toAbsolutePath() + " is read-only: make the file and its directory"
        + " writable"), e.getMessage());
  }
}
