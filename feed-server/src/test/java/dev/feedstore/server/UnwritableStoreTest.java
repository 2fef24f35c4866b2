package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.CapturedErr;
import dev.feedstore.testing.ReadOnlyFile;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store that cannot be written is refused at start, before anything listens, naming the file. */
class UnwritableStoreTest {
  @TempDir Path dir;

  @Test
  void startRefusesAReadOnlyDatabaseFileNamingIt() {
    Path file = dir.resolve("feeds.db");
    SqliteFeedStore.open(file).close();
    try (ReadOnlyFile readOnly = ReadOnlyFile.of(file); SqliteFeedStore store = SqliteFeedStore.open(file)) {
      FeedServer server = FeedServer.newBuilder(store)
          .serverBuilder(InProcessServerBuilder.forName(InProcessServerBuilder.generateName())).build();
      StorageFaultException refused = assertThrows(StorageFaultException.class, server::start);
      assertEquals(StorageFaultException.Kind.READ_ONLY, refused.kind());
      assertEquals(file.toAbsolutePath(), refused.file());
      IllegalStateException again = assertThrows(IllegalStateException.class, server::start);
      assertTrue(again.getMessage().contains("closed"), again.getMessage());
    }
  }

  @Test
  void mainExitsWithOneNamingTheReadOnlyFile() {
    Path file = dir.resolve("feeds.db");
    SqliteFeedStore.open(file).close();
    String text;
    int code;
    try (ReadOnlyFile readOnly = ReadOnlyFile.of(file); CapturedErr err = new CapturedErr()) {
      code = Main.run("--db", file.toString(), "--port", "0");
      text = err.text();
    }
    assertEquals(1, code, text);
    assertTrue(text.contains("cannot start: " + file.toAbsolutePath() + " is read-only: make the file and its"
        + " directory writable"), text);
    assertTrue(!text.contains("\tat "), "no stack trace:\n" + text);
    assertTrue(!text.contains("listening on"), text);
  }
}
