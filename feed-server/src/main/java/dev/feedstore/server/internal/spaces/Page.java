package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Blocks after a cursor, read from one snapshot of the store.
 *
 * @param blocks in position order
 * @param hasMore true when the scope holds more blocks after the last one returned
 * @param maxPosition the highest position in the whole space, in the same snapshot
 * @param cursorBlock the key of the block at the cursor position in the whole space, if any
 * @param namespaces the namespace of each feed of {@code blocks} that has one
 * @param cursorChain the history chain at the cursor position, when the cursor block was looked up
 *     and a chain is recorded there
 * @param lastChain the history chain at the last block, when there are blocks and it is recorded
 * @param floor the space's floor in the same snapshot: every position at or below it was removed
 *     by retention ({@link Position#NONE} when none was); a page read from cursor 0 starts there
 */
public record Page(List<Block> blocks, boolean hasMore, Position maxPosition, Optional<BlockKey> cursorBlock,
    Map<FeedId, Namespace> namespaces, OptionalLong cursorChain, OptionalLong lastChain, Position floor) {

  /**
   * This page without its blocks at or below {@code position} and the namespaces only they needed:
   * what a read after {@code position} from the same snapshot returns, up to the same last block.
   */
  public Page after(long position) {
    List<Block> kept = blocks.stream().filter(b -> b.position().value() > position).toList();
    Map<FeedId, Namespace> named = new HashMap<>();
    for (Block block : kept) {
      Namespace namespace = namespaces.get(block.feedId());
      if (namespace != null) {
        named.put(block.feedId(), namespace);
      }
    }
    return new Page(kept, hasMore, maxPosition, cursorBlock, named, cursorChain, kept.isEmpty() ? OptionalLong.empty()
        : lastChain, floor);
  }

  /**
   * The position up to which the scope has been read completely: the last block's when more
   * follow, otherwise the snapshot's highest position (or {@code cursor}, if that is higher).
   */
  public long scannedTo(long cursor) {
    if (hasMore) {
      return blocks.get(blocks.size() - 1).position().value();
    }
    return Math.max(cursor, maxPosition.value());
  }
}
