package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one read of the authority returned: a Query response, or one event of a Watch stream.
 *
 * @param blocks positioned blocks after the cursor, by position, with no gap in the scope
 * @param complete true when nothing in the scope follows these blocks as of this answer (a Query
 *     without {@code has_more}, a Watch's {@code caught_up})
 * @param coveredThrough the answer lists every block of the scope in {@code (cursor,
 *     coveredThrough]}: the last block's position, or for a final Query page the authority's highest
 *     position; {@link Position#NONE} when it vouches for nothing beyond its blocks
 * @param maxPosition the authority's highest position in the space
 * @param cursorBlockReported true when the answer says which block is at the request's cursor (a
 *     Query, or the first event of a Watch)
 * @param cursorBlock that block, when reported and present
 * @param serverToken the authority's token
 * @param namespaces the namespace of each feed among {@code blocks} that has one
 * @param cursorChain the authority's history chain at the request's cursor, when reported
 * @param lastChain the authority's history chain at the last block, when reported
 * @param floor the authority's floor: it removed every position up to it ({@link Position#NONE}
 *     when nothing); an answer to a cursor below it (only 0 gets one) starts above it
 * @param startCursor the cursor the request's start time resolved to, when it had one
 */
public record PullPage(
    List<Block> blocks,
    boolean complete,
    Position coveredThrough,
    Position maxPosition,
    boolean cursorBlockReported,
    Optional<BlockKey> cursorBlock,
    ServerToken serverToken,
    Map<FeedId, Namespace> namespaces,
    OptionalLong cursorChain,
    OptionalLong lastChain,
    Position floor,
    Optional<Position> startCursor) {
  public PullPage {
    Objects.requireNonNull(floor, "floor");
    Objects.requireNonNull(startCursor, "startCursor");
    Objects.requireNonNull(cursorChain, "cursorChain");
    Objects.requireNonNull(lastChain, "lastChain");
    blocks = List.copyOf(blocks);
    Objects.requireNonNull(coveredThrough, "coveredThrough");
    Objects.requireNonNull(maxPosition, "maxPosition");
    Objects.requireNonNull(cursorBlock, "cursorBlock");
    Objects.requireNonNull(serverToken, "serverToken");
    namespaces = Map.copyOf(namespaces);
    Position previous = Position.NONE;
    for (Block block : blocks) {
      if (!block.position().isAfter(previous)) {
        throw new IllegalArgumentException("pulled blocks must carry increasing positions; "
            + block.key() + " has " + block.position() + " after " + previous);
      }
      previous = block.position();
    }
    if (previous.isAfter(coveredThrough) && coveredThrough.isAssigned()) {
      throw new IllegalArgumentException("coveredThrough " + coveredThrough + " is below the last block at " + previous);
    }
  }

  /** A page that was not read from a start time. */
  public PullPage(List<Block> blocks, boolean complete, Position coveredThrough, Position maxPosition,
      boolean cursorBlockReported, Optional<BlockKey> cursorBlock, ServerToken serverToken,
      Map<FeedId, Namespace> namespaces, OptionalLong cursorChain, OptionalLong lastChain, Position floor) {
    this(blocks, complete, coveredThrough, maxPosition, cursorBlockReported, cursorBlock, serverToken, namespaces,
        cursorChain, lastChain, floor, Optional.empty());
  }

  /** The same page, read from a start time that the authority resolved to {@code cursor}. */
  public PullPage startingAt(Position cursor) {
    return new PullPage(blocks, complete, coveredThrough, maxPosition, cursorBlockReported, cursorBlock, serverToken,
        namespaces, cursorChain, lastChain, floor, Optional.of(cursor));
  }

  /**
   * The page of a Query answer: it covers through the last block, or through {@code maxPosition}
   * when nothing more follows.
   */
  public static PullPage ofQuery(List<Block> blocks, boolean hasMore, Position maxPosition,
      Optional<BlockKey> cursorBlock, ServerToken serverToken, Map<FeedId, Namespace> namespaces,
      OptionalLong cursorChain, OptionalLong lastChain, Position floor) {
    Position covered = hasMore
        ? (blocks.isEmpty() ? Position.NONE : blocks.get(blocks.size() - 1).position())
        : maxPosition;
    return new PullPage(blocks, !hasMore, covered, maxPosition, true, cursorBlock, serverToken, namespaces,
        cursorChain, lastChain, floor);
  }
}
