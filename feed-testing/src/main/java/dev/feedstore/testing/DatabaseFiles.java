package dev.feedstore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A SQLite database as files: its file and, beside it in WAL mode, the {@code -wal} and {@code -shm}
 * files that belong to it. Moving a database means moving all of them, or the next open replays a
 * log of another file into this one. Stateless.
 */
public final class DatabaseFiles {
  private DatabaseFiles() {}

  /** Deletes the database at {@code file}: the file and its {@code -wal} and {@code -shm} files, where they exist. */
  public static void delete(Path file) {
    try {
      for (String suffix : new String[] {"", "-wal", "-shm"}) {
        Files.deleteIfExists(Path.of(file + suffix));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Makes the database at {@code file} a copy of the closed database (or backup) {@code copy}: its
   * files are deleted and {@code copy} takes their place, as a restore from a backup does. Nothing
   * may have either open.
   */
  public static void replace(Path file, Path copy) {
    delete(file);
    try {
      Files.copy(copy, file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
