package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The blocks of a store. Keys are unique per space ({@code (feed, sequence, actor)}), and so are
 * positions; the store enforces both and reports a violation as {@link UniquenessViolationException}.
 *
 * <p>Every block is stored with a checksum of its key and content, and every method that returns
 * blocks verifies the blocks it reads: one whose stored bytes no longer match fails the call with
 * {@link CorruptBlockException} (a block is never returned as valid when it is not). A call that
 * does not read the block is not affected; {@link #setAside} removes such a block without reading
 * it.
 */
public interface BlockLog {

  /**
   * Stores {@code block} under its key, with its position (which may be {@link Position#NONE}),
   * unless the key is stored already. Never overwrites. The feed must exist ({@link
   * FeedCatalog#create}).
   *
   * @throws UnknownFeedException if the feed does not exist
   * @throws UniquenessViolationException if the position is held by another block of the space
   */
  InsertOutcome insert(SpaceId spaceId, Block block);

  /**
   * Stores blocks as {@link #insert} would, one after the other in the order given, in one go.
   *
   * @return what happened to each block, in the same order
   * @throws UnknownFeedException if a feed does not exist (nothing of the call is kept then only if
   *     the caller's transaction rolls back, as with every failure of a write)
   * @throws UniquenessViolationException if a position is held by another block of the space
   */
  default List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks) {
    List<InsertOutcome> outcomes = new java.util.ArrayList<>(blocks.size());
    for (Block block : blocks) {
      outcomes.add(insert(spaceId, block));
    }
    return outcomes;
  }

  /**
   * Stores blocks as {@link #insertAll(SpaceId, List)} does, recording with each one that is stored
   * the authority's {@link dev.feedstore.core.HistoryChain} at its position ({@code chains[i]} for
   * {@code blocks.get(i)}).
   */
  default List<InsertOutcome> insertAll(SpaceId spaceId, List<Block> blocks, long[] chains) {
    List<InsertOutcome> outcomes = insertAll(spaceId, blocks);
    for (int i = 0; i < blocks.size(); i++) {
      if (outcomes.get(i) instanceof InsertOutcome.Inserted) {
        setChain(spaceId, blocks.get(i).position(), chains[i]);
      }
    }
    return outcomes;
  }

  /**
   * Records the authority's history chain at a position of the space, with the block there: on the
   * authority, the chain it computed; on a replica, what the authority reported when the replica
   * pulled through the position. Nothing is recorded where the space holds no block. A block's
   * chain belongs to its position: whatever changes the position drops it ({@link #setPosition},
   * {@link #clearPositions}, {@link #clearPositionsAbove}).
   */
  void setChain(SpaceId spaceId, Position position, long chain);

  /** The authority's history chain at a position, if one was recorded there. */
  java.util.OptionalLong chainAt(SpaceId spaceId, Position position);

  /**
   * The highest position at or below {@code position} (never {@link Position#NONE}) where a
   * history chain is recorded, if any.
   */
  Optional<Position> chainedAtOrBelow(SpaceId spaceId, Position position);

  /** Drops every history chain recorded in the space; returns how many blocks had one. */
  int forgetChains(SpaceId spaceId);

  /**
   * Like {@link #insert}, for a block written here that no other store has seen yet: until it is
   * {@linkplain #markPublished published}, re-keying a block it follows may update its predecessor
   * link. Blocks stored with {@link #insert} count as published.
   */
  InsertOutcome insertLocal(SpaceId spaceId, Block block);

  /**
   * Records whether another store may hold these blocks' content (they are about to be sent, or a
   * send was refused as a whole). A published block's content never changes again.
   */
  void markPublished(SpaceId spaceId, Collection<BlockKey> keys, boolean published);

  /** The keys among {@code keys} of blocks not published yet. */
  java.util.Set<BlockKey> unpublished(SpaceId spaceId, Collection<BlockKey> keys);

  /** The block stored under {@code key}. */
  Optional<Block> find(SpaceId spaceId, BlockKey key);

  /** The blocks stored under any of {@code keys}; keys not stored are absent from the map. */
  Map<BlockKey, Block> findAll(SpaceId spaceId, Collection<BlockKey> keys);

  /** The block at {@code position} in the space. */
  Optional<Block> atPosition(SpaceId spaceId, Position position);

  /**
   * The blocks at any of {@code positions} in the space, by position; positions no block holds (and
   * {@link Position#NONE}) are absent from the map.
   */
  default Map<Position, Block> atPositions(SpaceId spaceId, Collection<Position> positions) {
    Map<Position, Block> found = new java.util.LinkedHashMap<>();
    for (Position position : positions) {
      atPosition(spaceId, position).ifPresent(block -> found.put(position, block));
    }
    return found;
  }

  /** Every block of the feed, in {@link dev.feedstore.core.FeedOrder}. Empty for an unknown feed. */
  List<Block> feed(SpaceId spaceId, FeedId feedId);

  /** The last block of the feed in {@link dev.feedstore.core.FeedOrder}, if it has blocks. */
  Optional<Block> lastInFeed(SpaceId spaceId, FeedId feedId);

  /** The highest sequence in the feed, if it has blocks. */
  Optional<Sequence> maxSequence(SpaceId spaceId, FeedId feedId);

  /**
   * Positioned blocks of the space with {@code position > cursor} in {@code scope}, by position, at
   * most {@code limit} of them.
   */
  List<Block> after(SpaceId spaceId, Scope scope, Position cursor, int limit);

  /**
   * Like {@link #after(SpaceId, Scope, Position, int)}, but only blocks positioned below {@code
   * below}: what precedes a given position, without reading the block there.
   */
  List<Block> between(SpaceId spaceId, Scope scope, Position cursor, Position below, int limit);

  /**
   * Moves the block stored under {@code key} out of the log without reading it, for a copy found
   * corrupt ({@link CorruptBlockException}): its bytes are kept apart (never read, sent or served as
   * a block again), and its key and position are free, so a good copy can be stored there.
   *
   * @return false if no block is stored under the key
   */
  boolean setAside(SpaceId spaceId, BlockKey key);

  /**
   * Removes the unpositioned block stored under {@code from}, whose content is stored under {@code
   * to} as well (the same block, re-keyed elsewhere), and points the unpublished blocks that
   * followed {@code from} at {@code to}. Nothing of the content is lost.
   *
   * @throws IllegalStateException if either block is missing, {@code from} is positioned, or the
   *     two differ in anything but the sequence
   */
  void mergeInto(SpaceId spaceId, BlockKey from, BlockKey to);

  /** The positioned block with the highest position below {@code position}, if any. */
  Optional<Block> lastBefore(SpaceId spaceId, Position position);

  /** The highest position held in the space, or {@link Position#NONE}. */
  Position maxPosition(SpaceId spaceId);

  /**
   * Unpositioned blocks of feeds in {@code scope}, by feed, then in feed order, at most {@code
   * limit}.
   */
  List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit);

  /**
   * Unpositioned blocks of feeds in {@code scope}, in the order of {@link #unpositioned(SpaceId,
   * Scope, int)}, that a push may carry: only blocks whose data is at most {@code maxBlockData}
   * bytes, at most {@code limit} of them, and no more than their data adds up to {@code maxData}
   * bytes, except that the first always comes. Reads only the blocks it returns.
   */
  List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit, int maxBlockData, long maxData);

  /**
   * The unpositioned blocks of feeds in {@code scope} whose data is larger than {@code maxBlockData}
   * bytes, in the order of {@link #unpositioned(SpaceId, Scope, int)}: their keys and data sizes,
   * at most {@code limit}. Reads no block data.
   */
  Map<BlockKey, Integer> unpositionedLarger(SpaceId spaceId, Scope scope, int maxBlockData, int limit);

  /** How many unpositioned blocks feeds in {@code scope} hold. */
  long countUnpositioned(SpaceId spaceId, Scope scope);

  /**
   * Gives the block stored under {@code key} the position {@code position} ({@link Position#NONE}
   * clears it), and drops the history chain recorded with it.
   *
   * @return false if no block is stored under the key
   * @throws UniquenessViolationException if another block of the space holds the position
   */
  boolean setPosition(SpaceId spaceId, BlockKey key, Position position);

  /** Clears every position of the space, and the chains recorded with them; returns how many blocks changed. */
  int clearPositions(SpaceId spaceId);

  /**
   * Clears the positions above {@code position}, and the chains recorded with them; returns how many
   * blocks changed.
   */
  int clearPositionsAbove(SpaceId spaceId, Position position);

  /**
   * Moves the unpositioned block stored under {@code key} to {@code newSequence}, and points every
   * unpublished block of the feed whose predecessor was {@code key} at the new key (a published
   * block keeps its link: its content may be stored elsewhere already).
   *
   * @throws UniquenessViolationException if {@code newSequence} is taken for that actor
   * @throws IllegalStateException if the block is positioned or not stored
   */
  void rekey(SpaceId spaceId, BlockKey key, Sequence newSequence);
}
