package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.StorageFaultException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * What a full checkpoint of a store's WAL needs on a full disk. Every commit on a full disk lands in
 * the WAL, which can be used again from its start only once a checkpoint has copied all of it into
 * the database file; that file then grows to the database's size in the newest snapshot. A
 * checkpoint that runs out of room part of the way takes whatever space was freed and fails, so
 * after a full disk the store copies the WAL only once the room it needs is there ({@link #fits}),
 * and until then refuses writes saying how much to free ({@link #refusal}).
 *
 * @param walBytes the size of the WAL file now
 * @param growthBytes how much the database file grows when the WAL is copied into it (0 if it
 *     does not)
 */
record WalRoom(long walBytes, long growthBytes) {
  /** Room asked for beyond the growth: the checkpoint's own writes, and a first commit after it. */
  static final long MARGIN_BYTES = 1 << 20;
  private static final double MB = 1_000_000;

  /** Measures the WAL of {@code file} on {@code connection}, which must not be in a transaction. */
  static WalRoom of(Connection connection, Path file) throws SQLException, IOException {
    long pages = longOf(connection, SqliteDialect.PAGE_COUNT);
    long pageSize = longOf(connection, SqliteDialect.PAGE_SIZE);
    Path wal = file.resolveSibling(file.getFileName() + "-wal");
    long walBytes = Files.exists(wal) ? Files.size(wal) : 0;
    return new WalRoom(walBytes, Math.max(0, pages * pageSize - Files.size(file)));
  }

  /** Bytes the file system holding {@code file} has for it, or -1 if it does not say. */
  static long usableBytes(Path file) {
    try {
      return Files.getFileStore(file.getParent()).getUsableSpace();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Bytes a checkpoint asks to be free before it runs. */
  long neededBytes() {
    return growthBytes + MARGIN_BYTES;
  }

  /** Whether {@code usable} bytes (-1: unknown, taken as enough) are room for the checkpoint. */
  boolean fits(long usable) {
    return usable < 0 || usable >= neededBytes();
  }

  /**
   * The full disk of {@code file}, saying what the WAL holds and how much to free: at least the
   * room the checkpoint needs beyond the {@code usable} bytes there are.
   *
   * @param detail what failed, in the storage's words, said first; may be empty
   */
  StorageFaultException refusal(Path file, long usable, String detail, Throwable cause) {
    long missing = Math.max(1, (long) Math.ceil((neededBytes() - Math.max(0, usable)) / MB));
    return new StorageFaultException(StorageFaultException.Kind.FULL, file, (detail.isEmpty() ? "" : detail + "; ")
        + file.getFileName() + "-wal holds " + mb(walBytes) + " that must be copied into " + file.getFileName()
        + " before writes go on, which needs " + mb(neededBytes()) + " free and the file system has "
        + mb(Math.max(0, usable)) + ": free at least " + missing + " MB. Writes are refused until then, so that the"
        + " space freed goes to the copy", cause);
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / MB);
  }

  private static long longOf(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }
}
