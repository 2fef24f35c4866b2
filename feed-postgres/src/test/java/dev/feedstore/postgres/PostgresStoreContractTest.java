package dev.feedstore.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStoreContract;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The authority's store contract on a real PostgreSQL, a fresh database per test. */
class PostgresStoreContractTest extends AuthorityStoreContract<PostgresStore> {
  private String url;

  @Override
  protected PostgresStore openFreshStore() {
    url = EmbeddedDatabase.shared().newDatabase();
    return PostgresStore.open(EmbeddedDatabase.settings(url));
  }

  @Test
  void anAppendOfOnlyNewKeysWithinTheFeedLimitIsCommittedByTheCallItself() {
    FeedId feed = TestBlocks.feedId();
    Optional<List<SpaceAppend.Stored>> stored = store.appendAllNew(List.of(new SpaceAppend(SPACE,
        Map.of(feed, Optional.empty()), List.of(TestBlocks.block(feed, "a", 0), TestBlocks.block(feed, "a", 1)), 1)), 1);

    assertEquals(Optional.of(Position.NONE), stored.map(all -> all.get(0).before()), "not declined");
    assertEquals(Position.of(2), store.read(tx -> tx.blocks().maxPosition(SPACE)));
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
