package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.sqlite.testing.ForeignDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link Replica#open} does with a file that is not a replica's. */
class ReplicaFileTest {
  @TempDir Path dir;

  @Test
  void aDatabaseOfAnotherApplicationIsRefusedAndLeftByteIdentical() throws Exception {
    Path file = ForeignDatabase.create(dir.resolve("other-app.db"));
    byte[] before = Files.readAllBytes(file);

    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
        () -> Replica.open(file, ActorId.of("alice")));

    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("another application"), e.getMessage());
    ForeignDatabase.assertUntouched(file, before);
  }
}
