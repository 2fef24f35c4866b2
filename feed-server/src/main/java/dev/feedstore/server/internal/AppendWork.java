package dev.feedstore.server.internal;

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
import dev.feedstore.server.ServerSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The write transaction of one Append: creates missing feeds with the request's namespace (within
 * {@code feeds-per-space}, counted by the store), stores each new block at the next position of the
 * space, claimed from the space's counter in the store ({@link
 * dev.feedstore.core.store.BlockLog#claimPositions}) in this same transaction, returns the stored
 * position of each block already stored with the same content, and fails with {@link
 * AppendConflictException} naming every key stored with different content, which rolls the whole
 * transaction back.
 *
 * <p>An optimistic work assumes every block is new, the common case: it claims a position for each
 * and stores them all in one {@link dev.feedstore.core.store.BlockLog#insertAll}, and if any key
 * turns out to be stored already it throws {@link NotAllNew}, which rolls the transaction back (the
 * claim with it), so that the caller runs the careful work: block by block, duplicates keeping their
 * positions, and only the blocks newly stored counted in the claim.
 *
 * <p>Not thread-safe; runs once, inside {@link AuthorityStore#write}.
 */
final class AppendWork implements AuthorityStore.Work<AuthorityTransaction, AppendWork.Outcome> {

  /**
   * What the transaction did, valid once it committed.
   *
   * @param positions the position of each block given, in the same order
   * @param added the blocks newly stored, with their positions, in position order
   * @param namespaces the namespace of each feed of the blocks (as stored; existing feeds keep theirs)
   * @param nextPosition the counter after the transaction
   * @param chains the history chain at each added block ({@link HistoryChain}), in the order of
   *     {@code added}; null when the chain before them is not known (a file from before chains)
   */
  record Outcome(long[] positions, List<Block> added, Map<FeedId, Optional<Namespace>> namespaces,
      long nextPosition, long[] chains) {}

  /** Some key of an optimistic work was stored already; nothing was written. */
  static final class NotAllNew extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotAllNew() {
      super("some appended keys are stored already", null, false, false);
    }
  }

  private final SpaceId spaceId;
  private final Optional<Namespace> namespace;
  private final List<Block> blocks;
  private final boolean optimistic;
  private final int feedsPerSpace;
  private final long nowMillis;

  /**
   * @param blocks distinct keys, unpositioned
   * @param optimistic whether to assume that every block is new (see the class comment)
   * @param feedsPerSpace the most feeds the space may have after the append
   * @param nowMillis the authority's clock for the receive time of the new blocks ({@link
   *     dev.feedstore.core.store.BlockLog#stampReceipt}, which keeps it from going back)
   */
  AppendWork(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks, boolean optimistic,
      int feedsPerSpace, long nowMillis) {
    this.spaceId = spaceId;
    this.namespace = namespace;
    this.blocks = blocks;
    this.optimistic = optimistic;
    this.feedsPerSpace = feedsPerSpace;
    this.nowMillis = nowMillis;
  }

  /**
   * @throws LimitExceededException if the space would have more than {@code feeds-per-space} feeds
   */
  @Override
  public Outcome run(AuthorityTransaction tx) {
    Map<FeedId, Optional<Namespace>> namespaces = feeds(tx);
    return optimistic ? allNew(tx, namespaces) : careful(tx, namespaces);
  }

  /** The namespace of each feed of the blocks, creating the feeds the space does not have. */
  private Map<FeedId, Optional<Namespace>> feeds(AuthorityTransaction tx) {
    Set<FeedId> feedIds = new LinkedHashSet<>();
    for (Block block : blocks) {
      feedIds.add(block.feedId());
    }
    Map<FeedId, Optional<Namespace>> namespaces = new LinkedHashMap<>(tx.feeds().namespaces(spaceId, feedIds));
    int created = feedIds.size() - namespaces.size();
    if (created == 0) {
      return namespaces;
    }
    long feeds = tx.feeds().count(spaceId) + created;
    if (feeds > feedsPerSpace) {
      throw new LimitExceededException(ServerSettings.Key.FEEDS_PER_SPACE, feedsPerSpace, feeds,
          "space '" + spaceId.value() + "' with the feeds this append creates");
    }
    for (FeedId feed : feedIds) {
      if (!namespaces.containsKey(feed)) {
        namespaces.put(feed, tx.feeds().ensure(spaceId, feed, namespace));
      }
    }
    return namespaces;
  }

  private Outcome allNew(AuthorityTransaction tx, Map<FeedId, Optional<Namespace>> namespaces) {
    long next = tx.blocks().claimPositions(spaceId, blocks.size()).value() + 1;
    long receivedAt = tx.blocks().stampReceipt(spaceId, nowMillis);
    long[] positions = new long[blocks.size()];
    List<Block> offered = new ArrayList<>(blocks.size());
    for (int i = 0; i < blocks.size(); i++) {
      positions[i] = next + i;
      offered.add(blocks.get(i).withPosition(Position.of(next + i)).withReceivedAt(receivedAt));
    }
    OptionalLong previous = chainBefore(tx, next);
    long[] chains = null;
    List<InsertOutcome> outcomes;
    if (previous.isPresent()) {
      chains = new long[offered.size()];
      long chain = previous.getAsLong();
      for (int i = 0; i < offered.size(); i++) {
        chain = HistoryChain.next(chain, offered.get(i));
        chains[i] = chain;
      }
      outcomes = tx.blocks().insertAll(spaceId, offered, chains);
    } else {
      outcomes = tx.blocks().insertAll(spaceId, offered);
    }
    for (InsertOutcome outcome : outcomes) {
      if (!(outcome instanceof InsertOutcome.Inserted)) {
        throw new NotAllNew();
      }
    }
    return new Outcome(positions, offered, namespaces, next + blocks.size(), chains);
  }

  /** The history chain at the position before {@code next}, if it is known. */
  private OptionalLong chainBefore(AuthorityTransaction tx, long next) {
    return next == 1 ? OptionalLong.of(HistoryChain.START) : tx.blocks().chainAt(spaceId, Position.of(next - 1));
  }

  private Outcome careful(AuthorityTransaction tx, Map<FeedId, Optional<Namespace>> namespaces) {
    // Holds the counter from here; claims what was stored once it is known.
    Position before = tx.blocks().claimPositions(spaceId, 0);
    long receivedAt = tx.blocks().stampReceipt(spaceId, nowMillis);
    long next = before.value() + 1;
    long[] positions = new long[blocks.size()];
    List<Block> added = new ArrayList<>();
    List<BlockKey> conflicts = new ArrayList<>();
    OptionalLong chain = chainBefore(tx, next);
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
      }
      if (outcome instanceof InsertOutcome.Inserted) {
        positions[i] = next++;
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
    if (!added.isEmpty() && !tx.blocks().claimPositions(spaceId, added.size()).equals(before)) {
      throw new IllegalStateException("the position counter of space " + spaceId.value()
          + " moved while this transaction held it");
    }
    long[] addedChains = chain.isPresent() ? chains.stream().mapToLong(Long::longValue).toArray() : null;
    return new Outcome(positions, added, namespaces, next, addedChains);
  }
}
