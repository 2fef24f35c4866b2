package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.SpaceFloor;
import dev.feedstore.server.internal.spaces.BlockSizes;
import dev.feedstore.server.internal.spaces.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a {@link Page} inside one transaction. Blocks are fetched in chunks sized from the sizes
 * seen so far, so a page of large blocks does not load many more blocks than it returns. Stateless
 * and thread-safe.
 *
 * <p>A block stored corrupt ({@link CorruptBlockException}) fails the page only if the page would
 * serve it: a chunk reads one block more than the page may hold (to tell {@code has_more}), and the
 * cursor's block is looked up for its key only, so a corrupt block there, or just past the page's
 * end, does not stop readers whose pages do not include it.
 */
final class PageReader {
  private static final int FIRST_CHUNK = 32;
  private static final int MAX_CHUNK = 1024;

  private PageReader() {}

  /**
   * Blocks of {@code scope} with a position above {@code cursor}: at most {@code maxBlocks}, and no
   * more than {@code maxBytes} ({@link BlockSizes}) unless the first alone is larger.
   *
   * @param withCursorBlock whether to look up the block at the cursor
   * @throws CursorCompactedException if {@code cursor} is above 0 and below the space's floor (the
   *     floor is read in the same transaction as the blocks, so a page never skips removed history)
   */
  static Page read(AuthorityTransaction tx, SpaceId spaceId, Scope scope, Position cursor, int maxBlocks,
      long maxBytes, boolean withCursorBlock) {
    SpaceFloor floor = tx.blocks().floor(spaceId);
    if (floor.isAbove(cursor)) {
      throw new CursorCompactedException(spaceId, cursor, floor.position());
    }
    List<Block> blocks = new ArrayList<>();
    boolean hasMore = false;
    long bytes = 0;
    Position after = cursor;
    int chunk = Math.min(maxBlocks + 1, FIRST_CHUNK);
    fetch:
    while (true) {
      List<Block> fetched;
      CorruptBlockException corrupt = null;
      try {
        fetched = tx.blocks().after(spaceId, scope, after, chunk);
      } catch (CorruptBlockException e) {
        // The blocks before it, of which there are fewer than a chunk: the page may end before it.
        corrupt = e;
        fetched = tx.blocks().between(spaceId, scope, after, e.position(), chunk);
      }
      for (Block block : fetched) {
        long size = BlockSizes.of(block);
        if (blocks.size() == maxBlocks || !blocks.isEmpty() && bytes + size > maxBytes) {
          hasMore = true;
          break fetch;
        }
        blocks.add(block);
        bytes += size;
      }
      if (corrupt != null) {
        if (blocks.size() == maxBlocks) {
          hasMore = true;
          break;
        }
        throw corrupt; // the page would include it (its size cannot be trusted to leave it out)
      }
      if (fetched.size() < chunk) {
        break;
      }
      after = fetched.get(fetched.size() - 1).position();
      long average = Math.max(1, bytes / blocks.size());
      long byBytes = Math.max(0, maxBytes - bytes) / average + 1;
      chunk = (int) Math.max(1, Math.min(Math.min(maxBlocks + 1L - blocks.size(), byBytes), MAX_CHUNK));
    }
    Optional<BlockKey> cursorBlock = !withCursorBlock ? Optional.empty()
        : floor.isRaised() && floor.position().equals(cursor) ? floor.key() : keyAt(tx, spaceId, cursor);
    OptionalLong cursorChain = withCursorBlock ? tx.blocks().chainAt(spaceId, cursor) : OptionalLong.empty();
    OptionalLong lastChain = blocks.isEmpty()
        ? OptionalLong.empty()
        : tx.blocks().chainAt(spaceId, blocks.get(blocks.size() - 1).position());
    return new Page(blocks, hasMore, tx.blocks().maxPosition(spaceId), cursorBlock,
        namespaces(tx, spaceId, blocks), cursorChain, lastChain, floor.position());
  }

  /** The key of the block at {@code position}, as stored even when the block's content is corrupt. */
  private static Optional<BlockKey> keyAt(AuthorityTransaction tx, SpaceId spaceId, Position position) {
    try {
      return tx.blocks().atPosition(spaceId, position).map(Block::key);
    } catch (CorruptBlockException e) {
      return Optional.of(e.key());
    }
  }

  private static Map<FeedId, Namespace> namespaces(AuthorityTransaction tx, SpaceId spaceId, List<Block> blocks) {
    Set<FeedId> feeds = new LinkedHashSet<>();
    for (Block block : blocks) {
      feeds.add(block.feedId());
    }
    Map<FeedId, Namespace> namespaces = new LinkedHashMap<>();
    tx.feeds().namespaces(spaceId, feeds).forEach((feed, namespace) -> namespace.ifPresent(ns -> namespaces.put(feed, ns)));
    return namespaces;
  }
}
