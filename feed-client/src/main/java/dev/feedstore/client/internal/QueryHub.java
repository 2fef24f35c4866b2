package dev.feedstore.client.internal;

import dev.feedstore.client.LiveQueryListener;
import dev.feedstore.client.LiveQueryRegistration;
import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.sync.Changes;
import dev.feedstore.core.sync.SpaceSync;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's live queries. Each commit that changes blocks is told here ({@link #appended}, {@link
 * #changed}, {@link #reread}) inside {@link CommitOrder#commit}, so in commit order; rounds on the
 * listener thread ({@link QueryRound}) bring every result up to the commits told so far and tell
 * the listeners. A round that reads the file starts its read transaction behind a {@link
 * CommitOrder#fence}, after taking the commits told: it reads exactly those, so that each event
 * shows whole commits. A round of local appends only reads nothing and waits for no commit in
 * flight. A round that fails reading (a storage fault) changes no result: its commits
 * are told again to the next round, tried after a pause; a block found corrupt is handed to the
 * replica to set aside (which is a commit of its own), and the round runs again. Thread-safe.
 */
public final class QueryHub implements AutoCloseable, QueryRegistration.Queries {
  private static final Logger log = LoggerFactory.getLogger(QueryHub.class);
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);
  private static final Duration LAST_RETRY = Duration.ofSeconds(10);

  private final FeedStore store;
  private final CommitOrder order;
  private final ListenerThread thread;
  private final Clock clock;
  private final int maxMatches;
  private final Function<SpaceId, UnpushableBlocks.Rules> refusals;
  private final Consumer<CorruptBlockException> onCorrupt;
  private final Object lock = new Object();
  /** Guarded by lock: the commits told since the last round took them. */
  private List<Notice> pending = new ArrayList<>();
  /** Guarded by lock. */
  private final List<QueryRegistration> registrations = new ArrayList<>();
  /** Guarded by lock: the commits told so far. */
  private long commits;
  /** Guarded by lock: what was asked of rounds (commits and registrations), and what rounds answered. */
  private long asked;
  private long answered;
  /** Guarded by lock. */
  private boolean scheduled;
  private boolean closed;
  /** Listener thread only. */
  private Duration retry = FIRST_RETRY;
  private final AtomicLong blocksRead = new AtomicLong();
  private volatile boolean broken;
  /** The keys indexed so far (guarded by itself). */
  private final Set<JsonPointer> indexed = new HashSet<>();
  /** Listener thread only: the block the last round found corrupt, so that one not taken out is not met for ever. */
  private dev.feedstore.core.BlockKey lastCorrupt;

  /**
   * @param clock the time of evaluation (a pending version's receive time)
   * @param maxMatches the most documents one query may match (setting {@code live-query-matches})
   * @param syncs the sync of each space, whose refusals now (of blocks too large, or of closed
   *     feeds) say which blocks are no versions ({@link UnpushableBlocks}); a change of them is
   *     told with {@link #reread}
   * @param onCorrupt sets aside a block found corrupt (a commit told here in turn)
   */
  public QueryHub(FeedStore store, CommitOrder order, ListenerThread thread, Clock clock, int maxMatches,
      Function<SpaceId, SpaceSync> syncs, Consumer<CorruptBlockException> onCorrupt) {
    this.store = store;
    this.order = order;
    this.thread = thread;
    this.clock = clock;
    this.maxMatches = maxMatches;
    this.refusals = space -> new UnpushableBlocks.Rules(syncs.apply(space).limits().maxPushableData(),
        syncs.apply(space).closedFeeds().keySet());
    this.onCorrupt = onCorrupt;
  }

  /** Registers a live query; its snapshot comes in the next round. */
  public LiveQueryRegistration register(LiveQuery query, LiveQueryListener listener) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(listener, "listener");
    QueryRegistration registration = new QueryRegistration(this, query, listener, maxMatches);
    query.key().pointer().ifPresent(this::index);
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the replica is closed");
      }
      registrations.add(registration);
      asked++;
      schedule();
    }
    return registration;
  }

  /** Blocks appended here by one commit, in order, to a feed with {@code namespace}. Call inside the commit's order. */
  public void appended(SpaceId space, List<Block> blocks, Optional<Namespace> namespace) {
    UnpushableBlocks.Rules rules = refusals.apply(space);
    if (blocks.stream().anyMatch(rules::mayLeaveOut)) {
      // Perhaps refused, and then no version: the round reads what the policies say.
      changed(space, Changes.of(blocks.stream().map(Block::key).toList()));
      return;
    }
    tell(space, blocks.stream().map(block -> new DocumentVersions.Version(block, namespace)).toList(), Changes.NONE,
        false);
  }

  /** What one sync commit changed. Call inside the commit's order. */
  public void changed(SpaceId space, Changes changes) {
    tell(space, List.of(), changes, !changes.rewritten().isEmpty());
  }

  /**
   * A commit after which every result of the space is read again: a history gap met, a policy
   * changed. Call inside the commit's order.
   */
  public void reread(SpaceId space) {
    tell(space, List.of(), Changes.NONE, true);
  }

  private void tell(SpaceId space, List<DocumentVersions.Version> appended, Changes changes, boolean rereadAll) {
    synchronized (lock) {
      long commit = ++commits;
      if (closed || registrations.stream().noneMatch(r -> r.query().space().equals(space))) {
        return; // a query registered later reads it with its snapshot
      }
      pending.add(new Notice(space, commit, appended, changes, rereadAll));
      asked++;
      schedule();
    }
  }

  /** Guarded by lock. */
  private void schedule() {
    if (!scheduled) {
      scheduled = true;
      thread.execute(this::round);
    }
  }

  /** Waits until the rounds answered what was asked before the call; false on timeout. */
  @Override
  public boolean awaitCurrent(Duration timeout) throws InterruptedException {
    if (thread.isCurrent()) {
      throw new IllegalStateException("awaitCurrent was called on the replica's listener thread, which it would"
          + " wait for: call it from another thread");
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      long target = asked;
      while (answered < target && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      return answered >= target;
    }
  }

  @Override
  public void remove(QueryRegistration registration) {
    synchronized (lock) {
      registrations.remove(registration);
    }
  }

  /**
   * From now on, rounds take a sync step's blocks for their documents' newest versions without
   * reading them: wrong, on purpose, for tests that show their checks fail.
   */
  public void breakOnPurpose() {
    broken = true;
  }

  /** Blocks live queries read from the file so far (for tests that count what a change cost). */
  public long blocksRead() {
    return blocksRead.get();
  }

  /**
   * Takes the commits told so far and brings every result up to them. A round that needs no read
   * (local appends only) takes them as they are: each commit was told whole, inside its order. A
   * round that reads takes them, and any told since, again behind the fence, and starts its read
   * before letting the next commit end.
   */
  private void round() {
    List<Notice> notices = new ArrayList<>();
    long[] asking = new long[1];
    QueryRound round = take(notices, asking);
    if (round == null) {
      return;
    }
    if (round.needsRead()) {
      try (CommitOrder.Fence fence = order.fence()) {
        round = take(notices, asking);
        if (round == null) {
          return;
        }
        QueryRound reading = round;
        try {
          store.read(tx -> {
            tx.versions().begin();
            fence.release();
            reading.read(tx);
            return null;
          });
        } catch (CorruptBlockException e) {
          fence.release();
          if (e.key().equals(lastCorrupt)) {
            failed(notices, e); // set aside already, and met again: wait rather than spin
            return;
          }
          lastCorrupt = e.key();
          again(notices);
          onCorrupt.accept(e);
          return;
        } catch (RuntimeException e) {
          fence.release();
          failed(notices, e);
          return;
        }
      }
    }
    retry = FIRST_RETRY;
    lastCorrupt = null;
    blocksRead.addAndGet(round.blocksRead());
    for (QueryRound.Told told : round.events()) {
      told.registration().tell(told.event());
    }
    synchronized (lock) {
      answered = Math.max(answered, asking[0]);
      lock.notifyAll();
    }
  }

  /**
   * Adds the commits told since to {@code notices} and makes the round of them all; null once
   * closed. {@code asking} gets what was asked so far.
   */
  private QueryRound take(List<Notice> notices, long[] asking) {
    synchronized (lock) {
      scheduled = false;
      if (closed) {
        return null;
      }
      notices.addAll(pending);
      pending = new ArrayList<>();
      asking[0] = asked;
      return new QueryRound(notices, List.copyOf(registrations), commits, clock.millis(), refusals, broken);
    }
  }

  /** Tells the commits of a round that read nothing to the next round, first. */
  private void again(List<Notice> notices) {
    synchronized (lock) {
      notices.addAll(pending);
      pending = notices;
      schedule();
    }
  }

  private void failed(List<Notice> notices, RuntimeException e) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      notices.addAll(pending);
      pending = notices;
    }
    log.warn("live queries could not read the replica's file; trying again in {} ms", retry.toMillis(), e);
    thread.schedule(() -> {
      synchronized (lock) {
        schedule();
      }
    }, retry);
    retry = retry.multipliedBy(2).compareTo(LAST_RETRY) > 0 ? LAST_RETRY : retry.multipliedBy(2);
  }

  /** Makes lookups by the key read only their candidates, once per key. */
  private void index(JsonPointer pointer) {
    synchronized (indexed) {
      if (indexed.contains(pointer)) {
        return;
      }
      store.write(tx -> tx.versions().indexKey(pointer));
      indexed.add(pointer);
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      registrations.clear();
      pending.clear();
      lock.notifyAll();
    }
  }
}
