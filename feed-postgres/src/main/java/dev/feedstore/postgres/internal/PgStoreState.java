package dev.feedstore.postgres.internal;

import dev.feedstore.core.store.StoreException;
import java.nio.file.Path;
import java.util.List;

/**
 * What a store keeps for its life: the name of its database (for messages), the id of this store
 * instance (its notifications are its own, so it skips them), and the database's token secret, read
 * once. The secret is written by the migration that makes the schema and never changes while the
 * database exists; a dump restored into it brings the same secret back. Thread-safe.
 */
public final class PgStoreState {
  private final Path database;
  private final String instance;
  private volatile byte[] tokenKey;

  public PgStoreState(Path database, String instance) {
    this.database = database;
    this.instance = instance;
  }

  public Path database() {
    return database;
  }

  /** The id this store instance signs its notifications with. */
  public String instance() {
    return instance;
  }

  /** The token secret, read through {@code tx} the first time. */
  byte[] tokenKey(PgTransaction tx) {
    byte[] known = tokenKey;
    if (known == null) {
      List<byte[]> rows = Sql.list(tx.connection, "SELECT token_key FROM store_secret WHERE secret_id = 1",
          rs -> rs.getBytes(1));
      if (rows.isEmpty()) {
        throw new StoreException("the database " + database + " has no token secret (table store_secret is empty)");
      }
      known = rows.get(0);
      tokenKey = known;
    }
    return known;
  }
}
