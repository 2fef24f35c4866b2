package dev.feedstore.core.store;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link AuthorityTransaction#append} through the transaction's views, one step after the other: the
 * claim of the space's counter (which holds it from there on), the receive time, the feeds (looked up
 * together, the missing ones created), the history chain before the blocks and one {@link
 * BlockLog#insertAll}. What a store whose statements cost no round trip does (SQLite's); a store
 * across a network does the same in one statement of its own. Stateless and thread-safe.
 */
public final class StepwiseAppend {
  private StepwiseAppend() {}

  /** Runs {@code appends} in {@code tx}, in their order. */
  public static List<SpaceAppend.Stored> run(AuthorityTransaction tx, List<SpaceAppend> appends) {
    List<SpaceAppend.Stored> stored = new ArrayList<>(appends.size());
    for (SpaceAppend append : appends) {
      stored.add(run(tx, append));
    }
    return stored;
  }

  private static SpaceAppend.Stored run(AuthorityTransaction tx, SpaceAppend append) {
    Position before = tx.blocks().claimPositions(append.spaceId(), append.blocks().size());
    long receivedAt = tx.blocks().stampReceipt(append.spaceId(), append.nowMillis());
    Map<FeedId, Optional<Namespace>> held = tx.feeds().namespaces(append.spaceId(), append.feeds().keySet());
    Map<FeedId, Optional<Namespace>> namespaces = new LinkedHashMap<>();
    List<FeedId> created = new ArrayList<>();
    OptionalLong feedsBefore = OptionalLong.empty();
    for (Map.Entry<FeedId, Optional<Namespace>> feed : append.feeds().entrySet()) {
      Optional<Namespace> namespace = held.get(feed.getKey());
      if (namespace == null) {
        if (feedsBefore.isEmpty()) {
          feedsBefore = OptionalLong.of(tx.feeds().count(append.spaceId()));
        }
        namespace = tx.feeds().ensure(append.spaceId(), feed.getKey(), feed.getValue());
        created.add(feed.getKey());
      }
      namespaces.put(feed.getKey(), namespace);
    }
    List<Block> offered = new ArrayList<>(append.blocks().size());
    for (Block block : append.blocks()) {
      offered.add(block.withPosition(Position.of(before.value() + 1 + offered.size())).withReceivedAt(receivedAt));
    }
    long[] chains = chains(tx, append, before, offered);
    List<InsertOutcome> outcomes = chains == null ? tx.blocks().insertAll(append.spaceId(), offered)
        : tx.blocks().insertAll(append.spaceId(), offered, chains);
    int first = -1;
    for (int i = 0; i < outcomes.size() && first < 0; i++) {
      if (!(outcomes.get(i) instanceof InsertOutcome.Inserted)) {
        first = i;
      }
    }
    return new SpaceAppend.Stored(namespaces, created, feedsBefore, before, receivedAt, chains, first);
  }

  /** The history chain at each offered block, null when the chain before them is not known. */
  private static long[] chains(AuthorityTransaction tx, SpaceAppend append, Position before, List<Block> offered) {
    OptionalLong previous = before.isAssigned() ? tx.blocks().chainAt(append.spaceId(), before)
        : OptionalLong.of(HistoryChain.START);
    if (previous.isEmpty()) {
      return null;
    }
    long[] chains = new long[offered.size()];
    long chain = previous.getAsLong();
    for (int i = 0; i < chains.length; i++) {
      chain = HistoryChain.next(chain, offered.get(i));
      chains[i] = chain;
    }
    return chains;
  }
}
