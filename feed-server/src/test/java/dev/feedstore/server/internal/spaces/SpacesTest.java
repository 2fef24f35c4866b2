package dev.feedstore.server.internal.spaces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.SpaceId;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link Spaces} keeps in memory: stored spaces for good, others only while they are held. */
class SpacesTest {
  @TempDir Path dir;

  @Test
  void aSpaceTheStoreDoesNotHoldIsForgottenWithItsLastHolderAndAStoredOneStays() {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      Spaces spaces = new Spaces(store, ServerSettings.DEFAULTS);
      for (int i = 0; i < 1_000; i++) {
        spaces.release(spaces.acquire(SpaceId.of("read-" + i)));
      }
      assertEquals(0, spaces.inMemoryCount());

      SpaceId id = SpaceId.of("s");
      SpaceState first = spaces.acquire(id);
      SpaceState second = spaces.acquire(id);
      assertSame(first, second, "holders of one space share its state");
      spaces.release(first);
      assertEquals(1, spaces.inMemoryCount(), "still held");
      store.write(tx -> {
        spaces.admit(tx, second);
        return null;
      });
      spaces.stored(second);
      spaces.release(second);

      assertEquals(1, spaces.inMemoryCount());
      assertEquals(1, spaces.loadedCount());
      SpaceState again = spaces.acquire(id);
      assertSame(second, again);
      assertTrue(again.stored());
      assertEquals(Optional.of(again.token()), store.read(tx -> tx.serverTokens().find(id)));
      assertFalse(spaces.acquire(SpaceId.of("other")).stored());
    }
  }
}
