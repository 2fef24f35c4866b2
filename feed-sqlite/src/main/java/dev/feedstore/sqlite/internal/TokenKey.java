package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.StoreException;
import java.util.List;

/**
 * The file's secret for deriving server tokens ({@code store_secret}, schema version 4), read from
 * the file the first time a transaction needs it and kept: it never changes while the file exists.
 *
 * <p>Thread-safe.
 */
final class TokenKey {
  private volatile byte[] key;

  /** The secret, read through {@code tx} if it was not read before. */
  byte[] get(SqliteTransaction tx) {
    byte[] known = key;
    if (known == null) {
      List<byte[]> rows = Sql.list(tx, "SELECT token_key FROM store_secret WHERE secret_id = 1", rs -> rs.getBytes(1));
      if (rows.isEmpty()) {
        throw new StoreException("the store's file has no token secret (table store_secret is empty)");
      }
      known = rows.get(0);
      key = known;
    }
    return known;
  }
}
