package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.server.internal.errors.StreamClosedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The appends of one space that run together in a write transaction, assuming that every block is
 * new (the common case): the statements they need are shared, not repeated per append. One lookup of
 * their feeds ({@link RunFeeds}), one claim of positions for all their blocks, one receive time, one
 * read of the history chain before them and one {@link dev.feedstore.core.store.BlockLog#insertAll}
 * of all their blocks, the chain carried across the whole run. The result is split into one {@link
 * AppendWork.Outcome} per append, the same as running their works one after the other in the same
 * transaction would give: positions dense in the run's order, each append its own blocks, feeds,
 * counter and slice of the chain.
 *
 * <p>If any key turns out to be stored already (by an earlier transaction, or by an append before
 * it in the run: a retried push), the run throws {@link NotAllNew}, which rolls the transaction
 * back; the caller runs that append carefully, block by block ({@link AppendWork}). Whatever the run
 * throws, {@link #culprit} names the append it came from: the one whose block was not new, the one
 * whose feeds crossed {@code feeds-per-space}, the first whose caller may not write to its feeds
 * ({@link FeedWriteCheck}), the first that brings blocks to the feed of a stream
 * that is over ({@link ClosedFeeds}), and the first of the run for a failure of a step they
 * share.
 *
 * <p>Not thread-safe; runs once, inside {@link dev.feedstore.core.store.AuthorityStore#write}.
 */
final class SpaceRun {

  /** Some key of the run was stored already; nothing was written. */
  static final class NotAllNew extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotAllNew() {
      super("some appended keys are stored already", null, false, false);
    }
  }

  private final SpaceId spaceId;
  private final List<PendingAppend> appends;
  private final RunFeeds feeds;
  private final ClosedFeeds closedFeeds;
  private final long nowMillis;
  private int culprit;

  /**
   * @param appends appends to {@code spaceId}, in the order their positions follow, each with distinct keys
   * @param feedsPerSpace the most feeds the space may have after the run
   * @param closedFeeds the feeds that take no new blocks
   * @param nowMillis the authority's clock for the receive time of the blocks ({@link
   *     dev.feedstore.core.store.BlockLog#stampReceipt}, which keeps it from going back)
   */
  SpaceRun(SpaceId spaceId, List<PendingAppend> appends, int feedsPerSpace, ClosedFeeds closedFeeds,
      long nowMillis) {
    this.spaceId = spaceId;
    this.appends = appends;
    this.feeds = new RunFeeds(spaceId, feedsPerSpace);
    this.closedFeeds = closedFeeds;
    this.nowMillis = nowMillis;
  }

  /** The index in the run of the append the failure of {@link #run} came from; 0 before a failure. */
  int culprit() {
    return culprit;
  }

  /**
   * @return what each append did, in the run's order
   * @throws NotAllNew if a key was stored already
   * @throws StreamClosedException if an append brings blocks to the feed of a stream that is over
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if an append's caller may not
   *     write to its feeds
   * @throws dev.feedstore.core.LimitExceededException if the space would have more than {@code feeds-per-space} feeds
   */
  List<AppendWork.Outcome> run(AuthorityTransaction tx) {
    List<Optional<Namespace>> namespaces = new ArrayList<>(appends.size());
    List<List<Block>> blocks = new ArrayList<>(appends.size());
    int total = 0;
    for (PendingAppend append : appends) {
      namespaces.add(append.namespace());
      blocks.add(append.blocks());
      total += append.blocks().size();
    }
    List<Map<FeedId, Optional<Namespace>>> named;
    try {
      named = feeds.ensure(tx, namespaces, blocks);
    } finally {
      culprit = Math.max(0, feeds.crossing());
    }
    for (int i = 0; i < appends.size(); i++) {
      culprit = i;
      appends.get(i).writeCheck().check(spaceId, named.get(i));
    }
    culprit = 0;
    long next = tx.blocks().claimPositions(spaceId, total).value() + 1;
    long receivedAt = tx.blocks().stampReceipt(spaceId, nowMillis);
    List<Block> offered = new ArrayList<>(total);
    for (List<Block> appended : blocks) {
      for (Block block : appended) {
        offered.add(block.withPosition(Position.of(next + offered.size())).withReceivedAt(receivedAt));
      }
    }
    long[] chains = chains(tx, next, offered);
    List<InsertOutcome> outcomes = chains == null ? tx.blocks().insertAll(spaceId, offered)
        : tx.blocks().insertAll(spaceId, offered, chains);
    for (int i = 0; i < outcomes.size(); i++) {
      if (!(outcomes.get(i) instanceof InsertOutcome.Inserted)) {
        culprit = owner(i);
        throw new NotAllNew();
      }
    }
    refuseClosedFeeds(tx, offered);
    return split(next, offered, chains, named);
  }

  /**
   * Refuses the first append that brings blocks to the feed of a stream that is over, naming its
   * feeds of such streams (the others may commit without it).
   */
  private void refuseClosedFeeds(AuthorityTransaction tx, List<Block> offered) {
    Map<FeedId, String> ended = closedFeeds.of(tx, spaceId, offered, nowMillis);
    if (ended.isEmpty()) {
      return;
    }
    for (int i = 0; i < offered.size(); i++) {
      if (ended.containsKey(offered.get(i).feedId())) {
        culprit = owner(i);
        Map<FeedId, String> own = new LinkedHashMap<>();
        appends.get(culprit).blocks().stream().map(Block::feedId).filter(ended::containsKey)
            .forEach(feed -> own.put(feed, ended.get(feed)));
        throw new StreamClosedException(spaceId, own);
      }
    }
  }

  /** The history chain at each offered block, null when the chain before them is not known (a file from before chains). */
  private long[] chains(AuthorityTransaction tx, long next, List<Block> offered) {
    OptionalLong previous = AppendWork.chainBefore(tx, spaceId, next);
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

  /** The append whose blocks include the run's {@code block}th. */
  private int owner(int block) {
    int end = 0;
    for (int i = 0; i < appends.size(); i++) {
      end += appends.get(i).blocks().size();
      if (block < end) {
        return i;
      }
    }
    throw new IndexOutOfBoundsException("block " + block + " of a run of " + end + " blocks");
  }

  private List<AppendWork.Outcome> split(long next, List<Block> offered, long[] chains,
      List<Map<FeedId, Optional<Namespace>>> named) {
    List<AppendWork.Outcome> outcomes = new ArrayList<>(appends.size());
    int from = 0;
    for (int i = 0; i < appends.size(); i++) {
      int to = from + appends.get(i).blocks().size();
      long[] positions = new long[to - from];
      for (int b = 0; b < positions.length; b++) {
        positions[b] = next + from + b;
      }
      outcomes.add(new AppendWork.Outcome(positions, List.copyOf(offered.subList(from, to)), named.get(i),
          next + to, chains == null ? null : Arrays.copyOfRange(chains, from, to)));
      from = to;
    }
    return outcomes;
  }
}
