package dev.feedstore.postgres.internal;

import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * What a failure of PostgreSQL means for the store's callers, by its SQLSTATE: a lost or refused
 * connection is {@link StorageFaultException.Kind#UNREACHABLE} (retry later, or on another server),
 * a full disk {@code FULL}, a read-only server (a standby, or {@code default_transaction_read_only})
 * {@code READ_ONLY}, an I/O error {@code IO}, damaged data {@code CORRUPT}; anything else is a plain
 * {@link StoreException}. A deadlock or a serialization failure is neither: the store runs the
 * transaction again ({@link #isRetryable}). Stateless.
 */
final class PgFaults {
  private PgFaults() {}

  /** True for a failure that running the same transaction again resolves: a deadlock, a serialization failure. */
  static boolean isRetryable(Throwable failure) {
    SQLException e = sqlException(failure);
    String state = e == null ? null : e.getSQLState();
    return "40001".equals(state) || "40P01".equals(state);
  }

  /** True when a unique constraint was violated (SQLSTATE 23505). */
  static boolean isUniqueViolation(SQLException e) {
    return "23505".equals(e.getSQLState());
  }

  /** The store's exception for a failure of the database, naming {@code database}. */
  static StoreException translate(Throwable failure, Path database, String doing) {
    SQLException e = sqlException(failure);
    if (e == null) {
      return new StoreException("the store failed " + doing + ": " + failure, failure);
    }
    StorageFaultException.Kind kind = kindOf(e);
    String detail = "PostgreSQL: " + e.getMessage() + (e.getSQLState() == null ? "" : " [SQLSTATE " + e.getSQLState() + "]");
    if (kind != null) {
      return new StorageFaultException(kind, database, detail, e);
    }
    return new StoreException("the store failed " + doing + " on the database " + database + " (" + detail + ")", e);
  }

  /** The kind of storage fault {@code e} reports, or null when it is not one. */
  static StorageFaultException.Kind kindOf(SQLException e) {
    if (e instanceof SQLTransientConnectionException) {
      return StorageFaultException.Kind.UNREACHABLE; // the pool found no connection in time
    }
    String state = e.getSQLState();
    if (state == null) {
      return null;
    }
    if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
      return StorageFaultException.Kind.UNREACHABLE; // connection exceptions, server shutting down or starting
    }
    return switch (state) {
      case "53100" -> StorageFaultException.Kind.FULL;
      case "25006" -> StorageFaultException.Kind.READ_ONLY;
      case "58030" -> StorageFaultException.Kind.IO;
      case "XX001", "XX002" -> StorageFaultException.Kind.CORRUPT;
      default -> null;
    };
  }

  private static SQLException sqlException(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException e) {
        return e;
      }
    }
    return null;
  }
}
