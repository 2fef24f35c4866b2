package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.StorageFaultException;
import org.sqlite.SQLiteErrorCode;

/**
 * Which SQLite result codes are faults of the storage under the file (its operator's to resolve)
 * rather than of the code or the request. Stateless.
 */
final class StorageFaults {
  private static final int SQLITE_READONLY = 8;
  private static final int SQLITE_IOERR = 10;
  private static final int SQLITE_CORRUPT = 11;
  private static final int SQLITE_FULL = 13;

  private StorageFaults() {}

  /**
   * The kind of storage fault {@code code} reports (by its primary code, so every extended
   * {@code SQLITE_IOERR_*} is an I/O error), or null if it is not one.
   */
  static StorageFaultException.Kind kindOf(SQLiteErrorCode code) {
    if (code == null) {
      return null;
    }
    return switch (code.code & 0xff) {
      case SQLITE_FULL -> StorageFaultException.Kind.FULL;
      case SQLITE_READONLY -> StorageFaultException.Kind.READ_ONLY;
      case SQLITE_IOERR -> StorageFaultException.Kind.IO;
      case SQLITE_CORRUPT -> StorageFaultException.Kind.CORRUPT;
      default -> null;
    };
  }
}
