package dev.feedstore.sqlite;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.FeedStoreContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.io.TempDir;

class SqliteFeedStoreContractTest extends FeedStoreContract {
  private static final String ROW = " FROM blocks b JOIN feeds f USING (feed_private_id) JOIN spaces s"
      + " ON s.space_private_id = f.space_private_id"
      + " WHERE s.space_id = ? AND f.feed_id = ? AND b.actor_id = ? AND b.sequence = ?";

  @TempDir Path dir;

  @Override
  protected FeedStore openFreshStore() {
    return SqliteFeedStore.open(dir.resolve("contract.db"));
  }

  /** Rewrites the row's data through a connection of its own, as the store never would. */
  @Override
  protected void flipABitOfStoredData(SpaceId space, BlockKey key) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("contract.db"))) {
      long row;
      byte[] data;
      try (PreparedStatement select = c.prepareStatement("SELECT b.block_private_id, b.data" + ROW)) {
        bindKey(select, space, key);
        try (ResultSet rs = select.executeQuery()) {
          if (!rs.next()) {
            throw new IllegalArgumentException("no block " + key + " in " + space);
          }
          row = rs.getLong(1);
          data = rs.getBytes(2);
        }
      }
      data[data.length / 2] ^= 0x10;
      try (PreparedStatement update = c.prepareStatement("UPDATE blocks SET data = ? WHERE block_private_id = ?")) {
        update.setBytes(1, data);
        update.setLong(2, row);
        update.executeUpdate();
      }
    }
  }

  private static void bindKey(PreparedStatement statement, SpaceId space, BlockKey key) throws Exception {
    statement.setString(1, space.value());
    statement.setString(2, key.feedId().value());
    statement.setString(3, key.actorId().value());
    statement.setLong(4, key.sequence().value());
  }
}
