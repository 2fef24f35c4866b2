package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.core.store.UniquenessViolationException;
import java.nio.file.Path;
import java.sql.SQLException;
import dev.feedstore.store.SqlFailure;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Turns SQLite's errors into the store's exceptions, naming the file and the broken rule; a fault
 * of the storage (full, read-only, I/O, damaged) becomes a {@link StorageFaultException} that says
 * what to do about it.
 */
final class SqlErrors {
  private SqlErrors() {}

  static RuntimeException translate(Path file, String action, Throwable error) {
    if (error instanceof StoreException store) {
      return store;
    }
    SQLiteException sqlite = findSqliteCause(error);
    if (sqlite != null && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE) {
      String constraint = constraintOf(sqlite.getMessage());
      return new UniquenessViolationException(constraint,
          "the store already holds a block with the same " + constraint + " (" + action + ")", error);
    }
    if (sqlite != null && sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY) {
      return new UniquenessViolationException("primary key",
          "the store already holds a row with that key (" + action + ")", error);
    }
    StorageFaultException.Kind fault = sqlite != null ? StorageFaults.kindOf(sqlite.getResultCode()) : null;
    if (fault != null) {
      return new StorageFaultException(fault, file, action + ": " + sqlite.getMessage(), error);
    }
    String reason = sqlite != null ? sqlite.getMessage() : String.valueOf(error.getMessage());
    return new StoreException("feed store " + file + ": " + action + " failed: " + reason, error);
  }

  /** A readable name of the unique index in SQLite's message. */
  static String constraintOf(String message) {
    String text = message == null ? "" : message;
    if (text.contains("blocks.sequence") && text.contains("blocks.actor_id")) {
      return "(feed, sequence, actor)";
    }
    if (text.contains("blocks.space_private_id") && text.contains("blocks.position")) {
      return "(space, position)";
    }
    if (text.contains("blocks.feed_private_id") && text.contains("blocks.position")) {
      return "(feed, position)";
    }
    if (text.contains("feeds.")) {
      return "(space, feed)";
    }
    return "unique key";
  }

  private static SQLiteException findSqliteCause(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLiteException sqlite) {
        return sqlite;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /** True if SQLite refused a statement for breaking a constraint (a unique key, a foreign key). */
  static boolean isConstraintViolation(SQLException error) {
    return error instanceof SQLiteException sqlite && sqlite.getResultCode() != null
        && (sqlite.getResultCode().code & 0xff) == SQLiteErrorCode.SQLITE_CONSTRAINT.code;
  }

  static boolean isSqlError(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException || t instanceof SqlFailure) {
        return true;
      }
    }
    return false;
  }
}
