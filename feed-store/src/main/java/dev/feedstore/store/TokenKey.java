package dev.feedstore.store;

import dev.feedstore.core.store.StoreException;

/**
 * A store's secret for deriving server tokens ({@code store_secret}, written by the schema's
 * migrations), read the first time a transaction needs it and kept: it never changes while the
 * store's file or database exists (a copy or a restored dump brings the same one back).
 *
 * <p>Thread-safe.
 */
public final class TokenKey {
  private volatile byte[] key;

  /** The secret, read through {@code tx} if it was not read before. */
  byte[] get(SqlTransaction tx) {
    byte[] known = key;
    if (known == null) {
      known = tx.sql().one(tx.queries().tokens.secret, rs -> rs.getBytes(1)).orElseThrow(() ->
          new StoreException("the store has no token secret (table store_secret is empty)"));
      key = known;
    }
    return known;
  }
}
