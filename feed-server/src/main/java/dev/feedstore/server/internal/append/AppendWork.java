package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.StreamClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The careful write transaction of one Append, block by block: creates missing feeds with the
 * request's namespace (within {@code feeds-per-space}, counted by the store, {@link RunFeeds}),
 * checks that its caller may write to them ({@link FeedWriteCheck}),
 * stores each new block at the next position of the space, claimed from the space's counter in the
 * store ({@link dev.feedstore.core.store.BlockLog#claimPositions}) in this same transaction, returns
 * the stored position of each block already stored with the same content, and fails with {@link
 * AppendConflictException} naming every key stored with different content, which rolls the whole
 * transaction back.
 *
 * <p>It runs when the common case failed: an append whose keys all are new runs with others of its
 * space in a {@link SpaceRun}, which stores all their blocks in one go and throws {@link
 * SpaceRun.NotAllNew} when some key is stored already; that append then runs here, duplicates
 * keeping their positions and only the blocks newly stored counted in the claim.
 *
 * <p>Not thread-safe; runs once, inside {@link AuthorityStore#write}.
 */
public final class AppendWork implements AuthorityStore.Work<AuthorityTransaction, AppendWork.Outcome> {

  /**
   * What the transaction did, valid once it committed.
   *
   * @param positions the position of each block given, in the same order
   * @param receivedAt the receive time of each block given, in the same order: the one stamped
   *     now on a block newly stored, the stored one on a block held already ({@link
   *     #UNKNOWN_RECEIVE_TIME} when the store does not know it)
   * @param added the blocks newly stored, with their positions, in position order
   * @param namespaces the namespace of each feed of the blocks (as stored; existing feeds keep theirs)
   * @param nextPosition the counter after the transaction
   * @param chains the history chain at each added block ({@link HistoryChain}), in the order of
   *     {@code added}; null when the chain before them is not known (a file from before chains)
   */
  public record Outcome(long[] positions, long[] receivedAt, List<Block> added, Map<FeedId, Optional<Namespace>> namespaces,
      long nextPosition, long[] chains) {
    /** A receive time the store does not know, as the wire says it. */
    public static final long UNKNOWN_RECEIVE_TIME = -1;
  }

  private final SpaceId spaceId;
  private final Optional<Namespace> namespace;
  private final List<Block> blocks;
  private final FeedWriteCheck writeCheck;
  private final int feedsPerSpace;
  private final ClosedFeeds closedFeeds;
  private final long nowMillis;

  /**
   * @param blocks distinct keys, unpositioned
   * @param writeCheck whether the caller may write to the blocks' feeds, asked once their namespaces are known
   * @param feedsPerSpace the most feeds the space may have after the append
   * @param closedFeeds the feeds that take no new blocks
   * @param nowMillis the authority's clock for the receive time of the new blocks ({@link
   *     dev.feedstore.core.store.BlockLog#stampReceipt}, which keeps it from going back)
   */
  public AppendWork(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks, FeedWriteCheck writeCheck,
      int feedsPerSpace, ClosedFeeds closedFeeds, long nowMillis) {
    this.spaceId = spaceId;
    this.namespace = namespace;
    this.blocks = blocks;
    this.writeCheck = writeCheck;
    this.feedsPerSpace = feedsPerSpace;
    this.closedFeeds = closedFeeds;
    this.nowMillis = nowMillis;
  }

  /**
   * @throws LimitExceededException if the space would have more than {@code feeds-per-space} feeds
   * @throws AppendConflictException if keys are stored with different content
   * @throws StreamClosedException if new blocks are in the feed of a stream that is over (blocks
   *     stored there already are not new)
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if the caller may not write to
   *     the feeds
   */
  @Override
  public Outcome run(AuthorityTransaction tx) {
    Map<FeedId, Optional<Namespace>> namespaces =
        new RunFeeds(spaceId, feedsPerSpace).ensure(tx, List.of(namespace), List.of(blocks)).get(0);
    writeCheck.check(spaceId, namespaces);
    return careful(tx, namespaces);
  }

  /** The history chain of the space at the position before {@code next}, if it is known. */
  static OptionalLong chainBefore(AuthorityTransaction tx, SpaceId spaceId, long next) {
    return next == 1 ? OptionalLong.of(HistoryChain.START) : tx.blocks().chainAt(spaceId, Position.of(next - 1));
  }

  private Outcome careful(AuthorityTransaction tx, Map<FeedId, Optional<Namespace>> namespaces) {
    // Holds the counter from here; claims what was stored once it is known.
    Position before = tx.blocks().claimPositions(spaceId, 0);
    long receivedAt = tx.blocks().stampReceipt(spaceId, nowMillis);
    long next = before.value() + 1;
    long[] positions = new long[blocks.size()];
    long[] received = new long[blocks.size()];
    List<Block> added = new ArrayList<>();
    List<BlockKey> conflicts = new ArrayList<>();
    OptionalLong chain = chainBefore(tx, spaceId, next);
    List<Long> chains = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      Block offered = blocks.get(i).withPosition(Position.of(next)).withReceivedAt(receivedAt);
      InsertOutcome outcome = tx.blocks().insert(spaceId, offered);
      if (outcome instanceof InsertOutcome.Duplicate duplicate) {
        if (!duplicate.stored().isPositioned()) {
          throw new IllegalStateException("block " + offered.key() + " of space " + spaceId.value()
              + " is stored without a position: the store holds blocks a replica wrote, and an authority's"
              + " blocks all have positions; serve the authority from a store of its own");
        }
        positions[i] = duplicate.stored().position().value();
        received[i] = duplicate.stored().receivedAt().orElse(Outcome.UNKNOWN_RECEIVE_TIME);
      }
      if (outcome instanceof InsertOutcome.Inserted) {
        positions[i] = next++;
        received[i] = receivedAt;
        added.add(offered);
        if (chain.isPresent()) {
          chain = OptionalLong.of(HistoryChain.next(chain.getAsLong(), offered));
          tx.blocks().setChain(spaceId, offered.position(), chain.getAsLong());
          chains.add(chain.getAsLong());
        }
      } else if (outcome instanceof InsertOutcome.Conflict) {
        conflicts.add(offered.key());
      }
    }
    if (!conflicts.isEmpty()) {
      throw new AppendConflictException(conflicts);
    }
    Map<FeedId, String> ended = closedFeeds.of(tx, spaceId, added, nowMillis);
    if (!ended.isEmpty()) {
      throw new StreamClosedException(spaceId, ended);
    }
    if (!added.isEmpty() && !tx.blocks().claimPositions(spaceId, added.size()).equals(before)) {
      throw new IllegalStateException("the position counter of space " + spaceId.value()
          + " moved while this transaction held it");
    }
    long[] addedChains = chain.isPresent() ? chains.stream().mapToLong(Long::longValue).toArray() : null;
    return new Outcome(positions, received, added, namespaces, next, addedChains);
  }
}
