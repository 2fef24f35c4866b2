package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import java.util.Collection;
import java.util.Map;

/**
 * The feeds that take no new blocks, whatever path the blocks come by (the server's are the feeds
 * of Durable Streams that are over: {@code EndedStreams}). Asked in an append's write transaction
 * once the space's position counter is held, which a close holds too: a close that committed
 * before is seen, one that commits after sees the blocks. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ClosedFeeds {
  /** No feed is closed: an authority that serves no Durable Streams. */
  ClosedFeeds NONE = new ClosedFeeds() {
    @Override
    public Map<FeedId, String> of(AuthorityTransaction tx, SpaceId spaceId, Collection<Block> added, long nowMillis) {
      return Map.of();
    }

    @Override
    public boolean mayHold(SpaceId spaceId) {
      return false;
    }
  };

  /**
   * Whether some feed of {@code spaceId} may take no new blocks; when not, {@link #of} is empty
   * there, and an append need not ask it in its transaction. The default: any space may.
   */
  default boolean mayHold(SpaceId spaceId) {
    return true;
  }

  /**
   * The feeds of {@code added}, blocks about to be stored in {@code spaceId} (all new), that take no
   * new block at {@code nowMillis}, each with why (for the refusal), in the order the blocks name
   * them; empty when every feed takes them.
   */
  Map<FeedId, String> of(AuthorityTransaction tx, SpaceId spaceId, Collection<Block> added, long nowMillis);
}
