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
import java.util.Set;

/**
 * The blocks of a replica's store: the {@link BlockLog} and the moves only a replica makes. A
 * replica holds blocks without a position (written here, not pushed yet), gives them the positions
 * the authority answers and clears positions when the authority was replaced or rolled back,
 * re-keys and merges blocks after a sequence conflict, marks what another store may hold
 * (published), reads a feed in {@link dev.feedstore.core.FeedOrder}, and sets aside a block found
 * corrupt. Checksums are verified as {@link BlockLog} says; {@link #setAside} removes a corrupt
 * block without reading it.
 */
public interface ReplicaBlockLog extends BlockLog {
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

  /** The blocks stored under any of {@code keys}; keys not stored are absent from the map. */
  Map<BlockKey, Block> findAll(SpaceId spaceId, Collection<BlockKey> keys);

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

  /**
   * The highest position at or below {@code position} (never {@link Position#NONE}) where a
   * history chain is recorded, if any.
   */
  Optional<Position> chainedAtOrBelow(SpaceId spaceId, Position position);

  /** Drops every history chain recorded in the space; returns how many blocks had one. */
  int forgetChains(SpaceId spaceId);

  /** The positioned block with the highest position below {@code position}, if any. */
  Optional<Block> lastBefore(SpaceId spaceId, Position position);

  /**
   * Unpositioned blocks of feeds in {@code scope}, by feed, then in feed order, at most {@code
   * limit}.
   */
  List<Block> unpositioned(SpaceId spaceId, Scope scope, int limit);

  /**
   * Unpositioned blocks of feeds in {@code scope} but not in {@code leftOut}, in the order of {@link
   * #unpositioned(SpaceId, Scope, int)}, that a push may carry: only blocks whose data is at most
   * {@code maxBlockData} bytes, at most {@code limit} of them, and no more than their data adds up
   * to {@code maxData} bytes, except that the first always comes. Reads only the blocks it returns.
   */
  List<Block> unpositioned(SpaceId spaceId, Scope scope, Set<FeedId> leftOut, int limit, int maxBlockData,
      long maxData);

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
   * clears it) and no receive time, and drops the history chain recorded with it.
   *
   * @return false if no block is stored under the key
   * @throws UniquenessViolationException if another block of the space holds the position
   */
  default boolean setPosition(SpaceId spaceId, BlockKey key, Position position) {
    return setPosition(spaceId, key, position, java.util.OptionalLong.empty());
  }

  /**
   * Gives the block stored under {@code key} the position {@code position} ({@link Position#NONE}
   * clears it) and the authority's receive time {@code receivedAt} (empty when unknown, and always
   * for a cleared position), and drops the history chain recorded with it.
   *
   * @return false if no block is stored under the key
   * @throws UniquenessViolationException if another block of the space holds the position
   * @throws IllegalArgumentException if a receive time comes without a position
   */
  boolean setPosition(SpaceId spaceId, BlockKey key, Position position, java.util.OptionalLong receivedAt);

  /**
   * Clears every position of the space, and the chains recorded with them; returns how many blocks
   * changed.
   */
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
