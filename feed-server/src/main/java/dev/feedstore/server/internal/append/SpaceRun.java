package dev.feedstore.server.internal.append;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.server.internal.errors.StreamClosedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The appends of one space that run together in a write transaction, assuming that every block is
 * new (the common case): they are one {@link SpaceAppend} of the store ({@link #request}), which
 * claims positions for all their blocks, stamps one receive time, creates the feeds the space does
 * not have, carries the history chain across the whole run and stores every block, in one round trip
 * on a store across a network, whatever the number of appends and spaces in the call ({@link
 * AuthorityTransaction#append}). What the store did is then checked for each append and split into
 * one {@link AppendWork.Outcome} per append ({@link #outcomes}), the same as running their works one
 * after the other in the same transaction would give: positions dense in the run's order, each
 * append its own blocks, feeds, counter and slice of the chain.
 *
 * <p>The checks run in the transaction, before it commits, on what the store holds: the feeds the
 * run creates within {@code feeds-per-space} ({@link RunFeeds#checkLimit}), each append's right to
 * write to its feeds as their namespaces are stored ({@link FeedWriteCheck}), every key new, and no
 * block for the feed of a stream that is over ({@link ClosedFeeds}, one more statement for the
 * streams' space only). A check that fails throws, which rolls the transaction back, and {@link
 * #culprit} names the append it came from: the first whose feeds crossed the limit, the first whose
 * caller may not write to its feeds, the one whose block was not new (stored by an earlier
 * transaction, or by an append before it in the run: a retried push, which the caller runs again
 * carefully, block by block, {@link AppendWork}), the first that brings blocks to a stream that is
 * over; and the first of the run for a failure of the store's step they share.
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

  /** The index in the run of the append the failure of {@link #outcomes} came from; 0 before a failure. */
  int culprit() {
    return culprit;
  }

  /**
   * The run as the store's append: every block of its appends in their order, and their feeds, each
   * with the namespace of the first append that names it.
   */
  SpaceAppend request() {
    Map<FeedId, Optional<Namespace>> named = new LinkedHashMap<>();
    List<Block> blocks = new ArrayList<>();
    for (PendingAppend append : appends) {
      for (Block block : append.blocks()) {
        named.putIfAbsent(block.feedId(), append.namespace());
        blocks.add(block);
      }
    }
    return new SpaceAppend(spaceId, named, blocks, nowMillis);
  }

  /** Runs the run alone: its {@link #request} in {@code tx}, then its {@link #outcomes}. */
  List<AppendWork.Outcome> run(AuthorityTransaction tx) {
    return outcomes(tx, tx.append(List.of(request())).get(0));
  }

  /**
   * Checks what the store did with the {@link #request} in {@code tx} for each append, and splits it.
   *
   * @return what each append did, in the run's order
   * @throws NotAllNew if a key was stored already
   * @throws StreamClosedException if an append brings blocks to the feed of a stream that is over
   * @throws dev.feedstore.server.internal.errors.AccessDeniedException if an append's caller may not
   *     write to its feeds
   * @throws dev.feedstore.core.LimitExceededException if the space would have more than {@code feeds-per-space} feeds
   */
  List<AppendWork.Outcome> outcomes(AuthorityTransaction tx, SpaceAppend.Stored stored) {
    List<AppendWork.Outcome> outcomes = checked(stored);
    refuseClosedFeeds(tx, outcomes);
    return outcomes;
  }

  /**
   * As {@link #outcomes}, without asking {@link ClosedFeeds}: for a run whose feeds cannot be closed,
   * whose transaction may have committed already ({@link
   * dev.feedstore.core.store.AuthorityStore#appendAllNew}).
   */
  List<AppendWork.Outcome> checked(SpaceAppend.Stored stored) {
    List<List<Block>> blocks = new ArrayList<>(appends.size());
    for (PendingAppend append : appends) {
      blocks.add(append.blocks());
    }
    List<Set<FeedId>> named = RunFeeds.named(blocks);
    if (!stored.created().isEmpty()) {
      try {
        feeds.checkLimit(named, new HashSet<>(stored.created())::contains, stored.feedsBefore().orElse(0));
      } finally {
        culprit = Math.max(0, feeds.crossing());
      }
    }
    List<Map<FeedId, Optional<Namespace>>> namespaces = new ArrayList<>(appends.size());
    for (int i = 0; i < appends.size(); i++) {
      Map<FeedId, Optional<Namespace>> own = new LinkedHashMap<>();
      named.get(i).forEach(feed -> own.put(feed, stored.namespaces().get(feed)));
      namespaces.add(own);
      culprit = i;
      appends.get(i).writeCheck().check(spaceId, own);
    }
    culprit = 0;
    if (!stored.allStored()) {
      culprit = owner(stored.held());
      throw new NotAllNew();
    }
    long next = stored.before().value() + 1;
    List<Block> offered = new ArrayList<>();
    for (List<Block> appended : blocks) {
      for (Block block : appended) {
        offered.add(block.withPosition(Position.of(next + offered.size())).withReceivedAt(stored.receivedAt()));
      }
    }
    return split(next, offered, stored.chains(), namespaces);
  }

  /**
   * Refuses the first append that brings blocks to the feed of a stream that is over, naming its
   * feeds of such streams (the others may commit without it).
   */
  private void refuseClosedFeeds(AuthorityTransaction tx, List<AppendWork.Outcome> outcomes) {
    List<Block> offered = new ArrayList<>();
    outcomes.forEach(outcome -> offered.addAll(outcome.added()));
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
      long[] receivedAt = new long[to - from];
      for (int b = 0; b < receivedAt.length; b++) {
        receivedAt[b] = offered.get(from + b).receivedAt().getAsLong();
      }
      outcomes.add(new AppendWork.Outcome(positions, receivedAt, List.copyOf(offered.subList(from, to)), named.get(i),
          next + to, chains == null ? null : Arrays.copyOfRange(chains, from, to)));
      from = to;
    }
    return outcomes;
  }
}
