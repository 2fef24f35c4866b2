package dev.feedstore.sqlite.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Another application's SQLite database, made with plain sqlite-jdbc and SQLite's defaults (a
 * rollback journal, not WAL), for tests that a feed store refuses it without changing a byte.
 */
public final class ForeignDatabase {
  private ForeignDatabase() {}

  /** Writes a small database of invoices to {@code file} and returns it. */
  public static Path create(Path file) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer TEXT, cents INTEGER)");
      for (int i = 1; i <= 50; i++) {
        s.execute("INSERT INTO invoices (customer, cents) VALUES ('customer " + i + "', " + i * 100 + ")");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("making another application's database " + file, e);
    }
    return file;
  }

  /**
   * Asserts that {@code file} holds exactly {@code before} and that no companion file (WAL,
   * shared memory, rollback journal) was left beside it.
   */
  public static void assertUntouched(Path file, byte[] before) {
    try {
      assertArrayEquals(before, Files.readAllBytes(file), file + " is byte-identical to what it was");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String suffix : new String[] {"-wal", "-shm", "-journal"}) {
      Path companion = Path.of(file + suffix);
      assertTrue(Files.notExists(companion), companion + " was not created");
    }
  }
}
