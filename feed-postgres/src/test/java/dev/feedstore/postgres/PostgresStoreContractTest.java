package dev.feedstore.postgres;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStoreContract;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/** The authority's store contract on a real PostgreSQL, a fresh database per test. */
class PostgresStoreContractTest extends AuthorityStoreContract<PostgresStore> {
  private String url;

  @Override
  protected PostgresStore openFreshStore() {
    url = EmbeddedDatabase.shared().newDatabase();
    return PostgresStore.open(EmbeddedDatabase.settings(url));
  }

  /** Flips one bit in the middle of the row's data through a connection of its own, as the store never would. */
  @Override
  protected void flipABitOfStoredData(SpaceId space, BlockKey key) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement update = c.prepareStatement("UPDATE blocks b SET data = set_byte(b.data, length(b.data) / 2,"
            + " get_byte(b.data, length(b.data) / 2) # 16) FROM feeds f, spaces s"
            + " WHERE f.feed_private_id = b.feed_private_id AND s.space_private_id = f.space_private_id"
            + " AND s.space_id = ? AND f.feed_id = ? AND b.actor_id = ? AND b.sequence = ?")) {
      update.setString(1, space.value());
      update.setString(2, key.feedId().value());
      update.setString(3, key.actorId().value());
      update.setLong(4, key.sequence().value());
      if (update.executeUpdate() != 1) {
        throw new IllegalArgumentException("no block " + key + " in " + space);
      }
    }
  }
}
