package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.core.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Says why a store's file could not be opened. SQLite reports most of these cases as {@code
 * SQLITE_CANTOPEN} ("unable to open database file") whatever the cause; the file system can tell a
 * missing directory, a path that is a directory and a directory the process may not write in
 * apart, and each has its own fix. SQLite's own text is kept beside the reason.
 */
final class OpenErrors {
  private OpenErrors() {}

  static RuntimeException translate(Path file, SQLException error) {
    SQLiteException sqlite = error instanceof SQLiteException e ? e : null;
    if (sqlite != null && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_NOTADB) {
      return new IncompatibleStoreException("database file " + file + " is not a SQLite database (SQLite: "
          + sqlite.getMessage() + "); a feed store needs a file of its own, new or made by a feed store; it was"
          + " not changed");
    }
    Optional<String> reason = fileSystemReason(file);
    if (reason.isPresent()) {
      return new StoreException("cannot open database file " + file + ": " + reason.get() + " (SQLite: "
          + error.getMessage() + ")", error);
    }
    return SqlErrors.translate(file, "opening the database", error);
  }

  /** What about the file's path keeps SQLite from opening it, if the file system shows it. */
  static Optional<String> fileSystemReason(Path file) {
    Path dir = file.getParent();
    String user = System.getProperty("user.name");
    if (Files.isDirectory(file)) {
      return Optional.of("it is a directory; give the path of a file in it, for example " + file.resolve("feeds.db"));
    }
    if (dir == null) {
      return Optional.empty();
    }
    if (!Files.exists(dir)) {
      return Optional.of("its directory " + dir + " does not exist; create it first (mkdir -p " + dir
          + ") or give a path in an existing directory");
    }
    if (!Files.isDirectory(dir)) {
      return Optional.of(dir + " is not a directory");
    }
    if (!Files.exists(file) && !Files.isWritable(dir)) {
      return Optional.of("it does not exist and cannot be created: the directory " + dir + " is not writable by"
          + " user " + user + " (its permissions, or a read-only mount); make it writable or give a path elsewhere");
    }
    if (!Files.isReadable(file)) {
      return Optional.of("it is not readable by user " + user);
    }
    if (!Files.isWritable(dir)) {
      return Optional.of("the directory " + dir + " is not writable by user " + user + " (its permissions, or a"
          + " read-only mount); SQLite creates " + file.getFileName() + "-wal and " + file.getFileName()
          + "-shm beside the database while it is open, so the directory must be writable");
    }
    return Optional.empty();
  }
}
