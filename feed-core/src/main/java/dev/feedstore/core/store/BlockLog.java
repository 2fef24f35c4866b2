package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;

/**
 * The blocks of a store, as the position authority needs them: stored at the positions it claims
 * from each space's counter ({@link #claimPositions}), read by key, by position and in pages after a
 * cursor, with the history chain at each position. Keys are unique per space ({@code (feed,
 * sequence, actor)}), and so are positions; the store enforces both and reports a violation as
 * {@link UniquenessViolationException}. What only a replica does with its blocks is in {@link
 * ReplicaBlockLog}.
 *
 * <p>Every block is stored with a checksum of its key and content, and every method that returns
 * blocks verifies the blocks it reads: one whose stored bytes no longer match fails the call with
 * {@link CorruptBlockException} (a block is never returned as valid when it is not). A call that
 * does not read the block is not affected.
 */
public interface BlockLog {
  /**
   * Stores {@code block} under its key, with its position, unless the key is stored already. Never
   * overwrites. The feed must exist ({@link FeedCatalog#create}). The authority stores every block
   * at a position it claimed ({@link #claimPositions}); only a replica's store also holds blocks
   * with {@link Position#NONE} ({@link ReplicaBlockLog}).
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
   * chain belongs to its position: whatever changes the position drops it (on a replica, {@link
   * ReplicaBlockLog#setPosition}, {@link ReplicaBlockLog#clearPositions}, {@link
   * ReplicaBlockLog#clearPositionsAbove}).
   */
  void setChain(SpaceId spaceId, Position position, long chain);

  /** The authority's history chain at a position, if one was recorded there. */
  java.util.OptionalLong chainAt(SpaceId spaceId, Position position);

  /** The block stored under {@code key}. */
  Optional<Block> find(SpaceId spaceId, BlockKey key);

  /** The block at {@code position} in the space. */
  Optional<Block> atPosition(SpaceId spaceId, Position position);

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

  /** The highest position held in the space, or {@link Position#NONE}. */
  Position maxPosition(SpaceId spaceId);

  /**
   * Hands out the next {@code count} positions of the space from its counter, in this write
   * transaction, and returns the highest position handed out before ({@link Position#NONE} if none):
   * the claimed positions are that plus 1 through that plus {@code count}. The counter is stored with
   * the space (which is stored if the store holds nothing of it yet) and commits or rolls back with the
   * transaction, so a failed append burns no position. Until the transaction ends it holds the
   * space's counter: appends to one space are serialized by the store, across processes that share
   * it too, and their positions stay dense and become visible in order. {@code count} 0 reads the
   * counter and holds it.
   *
   * <p>The counter counts what was claimed, not what is stored: blocks stored at positions that
   * were never claimed (as a replica stores the authority's) do not move it.
   *
   * @throws IllegalArgumentException if {@code count} is negative
   * @throws IllegalStateException in a read transaction
   */
  Position claimPositions(SpaceId spaceId, int count);
  /**
   * The space's floor: what retention has removed from it ({@link SpaceFloor#NONE} when nothing).
   * Read in the caller's transaction, so it agrees with the blocks that transaction sees: every
   * block at or below it is gone, every one above it still there. The default is for stores that
   * never remove history (a replica's).
   */
  default SpaceFloor floor(SpaceId spaceId) {
    return SpaceFloor.NONE;
  }

  /**
   * Removes the lowest blocks of the space, those at positions up to {@code upTo}, at most {@code
   * maxBlocks} of them in this write transaction, and raises the space's floor to the highest
   * position removed (keeping that block's key and chain: {@link SpaceFloor}). Feeds keep their
   * rows; their block counts drop by what they lost, and each keeps the highest position it lost
   * ({@link StreamCatalog#removedUpTo}). A caller that removes much history does it in
   * several small transactions, calling again until fewer than {@code maxBlocks} are removed, so
   * that appends wait for one small transaction at a time. The floor never moves down: {@code upTo}
   * at or below it removes nothing.
   *
   * @return how many blocks were removed
   * @throws IllegalArgumentException if {@code maxBlocks} is not positive
   * @throws IllegalStateException in a read transaction
   * @throws UnsupportedOperationException if the store never removes history
   */
  default int compact(SpaceId spaceId, Position upTo, int maxBlocks) {
    throw new UnsupportedOperationException("this store keeps every block; it cannot compact space " + spaceId);
  }
  /** The retention an administrator set for the space ({@link #setRetention}), if one was set. */
  default java.util.Optional<Retention> retention(SpaceId spaceId) {
    return java.util.Optional.empty();
  }

  /**
   * Stores the space's own retention (the space is stored if the store holds nothing of it yet);
   * {@code Optional.empty()} goes back to the server's default. Write transaction only.
   *
   * @throws UnsupportedOperationException if the store never removes history
   */
  default void setRetention(SpaceId spaceId, java.util.Optional<Retention> retention) {
    throw new UnsupportedOperationException("this store keeps every block; it has no retention for space " + spaceId);
  }

  /**
   * The highest position {@code retention} lets go of in the space at {@code nowMillis}: every
   * block at or below it is beyond some bound ({@link Position#NONE} when none is). Reads, removes
   * nothing.
   */
  default Position retentionCut(SpaceId spaceId, Retention retention, long nowMillis) {
    long highest = maxPosition(spaceId).value();
    long cut = 0;
    if (retention.blocks().isPresent()) {
      cut = Math.max(cut, highest - retention.blocks().getAsLong());
    }
    if (retention.ageMillis().isPresent()) {
      java.util.Optional<Position> firstKept = firstSince(spaceId, nowMillis - retention.ageMillis().getAsLong());
      cut = Math.max(cut, firstKept.map(p -> p.value() - 1).orElse(highest));
    }
    if (retention.bytes().isPresent()) {
      cut = Math.max(cut, lastBeyondBytes(spaceId, retention.bytes().getAsLong()).value());
    }
    return Position.of(Math.max(0, cut));
  }

  /**
   * The lowest position above the floor whose block was received at or after {@code timestampMillis}
   * (its {@link Block#receivedAt()}, the authority's clock, not the author's), if any block was.
   *
   * <p>Derived from {@link #lastReceivedBefore}, the {@link #floor} and {@link #maxPosition}: receive
   * times do not decrease with positions, so the blocks received before the time are the ones up to
   * the larger of the first two, and an authority's positions above the floor have no gaps, so the
   * next one is the answer while it is held. (Were there a gap there, the answer would fall in it,
   * with still exactly the blocks received before the time below it.)
   */
  default Optional<Position> firstSince(SpaceId spaceId, long timestampMillis) {
    long before = startAfter(spaceId, timestampMillis).value();
    return before < maxPosition(spaceId).value() ? Optional.of(Position.of(before + 1)) : Optional.empty();
  }

  /**
   * The cursor after which the space holds exactly its blocks received at or after {@code
   * receivedAtMillis}: the larger of {@link #lastReceivedBefore} and the {@link #floor} (the blocks
   * received before the time may be gone, and so may some received after it, which a read from the
   * floor says with its floor). What a read that starts at a time reads after.
   */
  default Position startAfter(SpaceId spaceId, long receivedAtMillis) {
    Position before = lastReceivedBefore(spaceId, receivedAtMillis);
    Position floor = floor(spaceId).position();
    return floor.isAfter(before) ? floor : before;
  }

  /**
   * The highest position whose block was received before {@code receivedAtMillis} ({@link
   * Block#receivedAt()}), {@link Position#NONE} when none of the blocks the space holds was: reading
   * after it gives exactly the blocks received at or after that time, since receive times do not
   * decrease with positions. Blocks removed by retention are not looked at (the caller compares
   * with the {@link #floor}).
   */
  default Position lastReceivedBefore(SpaceId spaceId, long receivedAtMillis) {
    return Position.NONE;
  }

  /**
   * The receive time of the blocks this write transaction stores in the space: {@code nowMillis},
   * or the last receive time handed out in the space when that is later (a clock that stepped back
   * never breaks the order), which it becomes. Like {@link #claimPositions}, it is kept with the
   * space in the store, so that every process sharing the store stamps in one order; call it after
   * {@link #claimPositions} in the same transaction, which holds the space's row.
   *
   * @throws IllegalStateException in a read transaction
   * @throws UnsupportedOperationException if the store does not hand out positions
   */
  default long stampReceipt(SpaceId spaceId, long nowMillis) {
    throw new UnsupportedOperationException("this store does not stamp receipts (space " + spaceId + ")");
  }

  /**
   * The highest position at which the data of its block and of every block above it adds up to
   * more than {@code bytes} ({@link Position#NONE} when all of the space's data fits).
   */
  default Position lastBeyondBytes(SpaceId spaceId, long bytes) {
    return Position.NONE;
  }
}
