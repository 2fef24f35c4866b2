package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Blocks that an authority's write transaction stores in one space at new positions, with the feeds
 * they name: the store's part of an append that assumes every key is new ({@link
 * AuthorityTransaction#append}). Immutable.
 *
 * @param spaceId the space appended to
 * @param feeds every feed the blocks name, in the order the caller wants new ones created, each with
 *     the namespace it gets if the store does not hold it yet
 * @param blocks unpositioned, in the order their positions follow
 * @param nowMillis the authority's clock for the blocks' receive time ({@link BlockLog#stampReceipt},
 *     which keeps it from going back)
 */
public record SpaceAppend(SpaceId spaceId, Map<FeedId, Optional<Namespace>> feeds, List<Block> blocks,
    long nowMillis) {

  /**
   * The append of {@code blocks} to {@code spaceId}; the map and list are copied.
   *
   * @throws NullPointerException if {@code spaceId}, the map, the list or a block is null
   * @throws IllegalArgumentException if a block names a feed {@code feeds} does not list, or has a position
   */
  public SpaceAppend {
    Objects.requireNonNull(spaceId, "spaceId");
    feeds = Collections.unmodifiableMap(new LinkedHashMap<>(feeds));
    blocks = List.copyOf(blocks);
    for (Block block : blocks) {
      if (!feeds.containsKey(block.feedId())) {
        throw new IllegalArgumentException("block " + block.key() + " names a feed the append does not list");
      }
      if (block.position().isAssigned()) {
        throw new IllegalArgumentException("block " + block.key() + " has position " + block.position()
            + ": an append's blocks get theirs from the space's counter");
      }
    }
  }

  /**
   * What the store did with a {@link SpaceAppend}, in the transaction that ran it.
   *
   * @param namespaces every feed of the append with its namespace as stored (a feed the call created:
   *     the namespace it was given), in the order of the append's feeds
   * @param created the feeds the call created, in the order of the append's feeds
   * @param feedsBefore how many feeds the space had before the call, when it created some (what a
   *     limit of feeds per space is checked against); empty when it created none
   * @param before the space's highest position before the call: the blocks took the positions after
   *     it, in their order
   * @param receivedAt the receive time the blocks were stored with
   * @param chains the history chain at each block's position ({@link dev.feedstore.core.HistoryChain}),
   *     in the blocks' order; null when the chain before them is not known (a store from before
   *     chains)
   * @param held the index of the first block the store did not store because its key (or its
   *     position) is held already, or -1 when every block was stored. The claimed positions then have
   *     a hole, and the transaction must not commit: the caller rolls it back and stores the blocks
   *     one by one.
   */
  public record Stored(Map<FeedId, Optional<Namespace>> namespaces, List<FeedId> created, OptionalLong feedsBefore,
      Position before, long receivedAt, long[] chains, int held) {

    /**
     * What the store did; the map and list are copied, {@code chains} is not.
     *
     * @throws NullPointerException if {@code namespaces}, {@code created}, {@code feedsBefore} or {@code before} is
     *     null
     */
    public Stored {
      namespaces = Collections.unmodifiableMap(new LinkedHashMap<>(namespaces));
      created = List.copyOf(created);
      Objects.requireNonNull(feedsBefore, "feedsBefore");
      Objects.requireNonNull(before, "before");
    }

    /** Whether every block was stored. */
    public boolean allStored() {
      return held < 0;
    }
  }
}
