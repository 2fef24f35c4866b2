package dev.feedstore.sqlite.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.feedstore.core.store.StorageFaultException.Kind;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;

class StorageFaultsTest {
  @Test
  void storageResultCodesAreFaultsOfTheirKindWithEveryExtendedCode() {
    assertEquals(Kind.FULL, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_FULL));
    assertEquals(Kind.READ_ONLY, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_READONLY));
    assertEquals(Kind.READ_ONLY, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_READONLY_DBMOVED));
    assertEquals(Kind.IO, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_IOERR));
    assertEquals(Kind.IO, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_IOERR_WRITE));
    assertEquals(Kind.IO, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_IOERR_FSYNC));
    assertEquals(Kind.CORRUPT, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_CORRUPT));
    assertEquals(Kind.CORRUPT, StorageFaults.kindOf(SQLiteErrorCode.SQLITE_CORRUPT_INDEX));
  }

  @Test
  void otherResultCodesAreNotStorageFaults() {
    assertNull(StorageFaults.kindOf(SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE));
    assertNull(StorageFaults.kindOf(SQLiteErrorCode.SQLITE_BUSY));
    assertNull(StorageFaults.kindOf(SQLiteErrorCode.SQLITE_ERROR));
    assertNull(StorageFaults.kindOf(SQLiteErrorCode.SQLITE_CANTOPEN));
    assertNull(StorageFaults.kindOf(null));
  }
}
