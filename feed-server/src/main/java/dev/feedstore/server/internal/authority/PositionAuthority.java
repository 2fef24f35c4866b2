package dev.feedstore.server.internal.authority;

import static dev.feedstore.server.settings.ServerSettings.APPEND_GROUP_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.RESPONSE_BYTES;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.Retention;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.server.internal.append.AppendGroup;
import dev.feedstore.server.internal.append.AppendQueue;
import dev.feedstore.server.internal.append.AppendWork;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.append.FeedWriteCheck;
import dev.feedstore.server.internal.append.PendingAppend;
import dev.feedstore.server.internal.errors.EarlierAppendRefusedException;
import dev.feedstore.server.internal.monitoring.NamedThreads;
import dev.feedstore.server.internal.spaces.KnownHistory;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.internal.spaces.SpaceTail;
import dev.feedstore.server.internal.spaces.Spaces;
import dev.feedstore.server.settings.ServerSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The position authority's rules over an {@link AuthorityStore}, with no gRPC in sight: Append gives
 * new blocks consecutive positions per space, Query reads a consistent page, Subscribe stores
 * scopes, ListFeeds lists feeds. Every answer carries the space's server token.
 *
 * <p>The position counter of each space lives in the store, claimed by the append's own
 * transaction ({@code SpaceRun}, {@link AppendWork}), so a failed transaction burns no position and any number of
 * authorities may write to one store: nothing they keep in memory decides a position.
 *
 * <p>Thread-safe. Appends are committed in groups, one group at a time in this process (and the
 * store serializes them across processes), on a thread the authority owns until {@link #close};
 * everything else runs concurrently. All methods block on the store, but for the asynchronous
 * append.
 */
public final class PositionAuthority {
  /** How long the committing and answering threads stay without work before they end (new ones start with the next append). */
  private static final long IDLE_COMMITTER_SECONDS = 60;

  private final AuthorityStore<?> store;
  private final ServerSettings settings;
  private final Spaces spaces;
  private final SubscriptionBook subscriptions;
  private final AppendQueue appends;
  /** The thread that commits the groups of appends ({@link AppendQueue}). */
  private final ThreadPoolExecutor committer;
  /** The thread that answers the appends of a committed group while the next one commits. */
  private final ThreadPoolExecutor answerer;
  private final Compaction compaction;
  private final ClosedFeeds closedFeeds;
  private final Clock clock;
  /**
   * Held by the thread that commits a group from its commit until its blocks are recorded in the
   * spaces' tails, and by {@link #write} likewise, so that what they commit is recorded in commit
   * order.
   */
  private final ReentrantLock publishing = new ReentrantLock();

  /**
   * The caller keeps ownership of {@code store}; {@code closedFeeds} says which feeds take no new
   * blocks (the feeds of Durable Streams that are over).
   */
  public PositionAuthority(AuthorityStore<?> store, ServerSettings settings, Clock clock, ClosedFeeds closedFeeds) {
    this.store = store;
    this.settings = settings;
    this.spaces = new Spaces(store, settings);
    this.subscriptions = new SubscriptionBook(store, clock, settings);
    this.compaction = new Compaction(store, subscriptions.retentionHolds());
    this.clock = clock;
    this.closedFeeds = closedFeeds;
    AppendGroup group = new AppendGroup(store, spaces, settings, closedFeeds, clock);
    this.committer = oneThread("feed-commit");
    this.answerer = oneThread("feed-answer");
    this.appends = new AppendQueue(appendGroup -> {
      publishing.lock();
      try {
        return group.commit(appendGroup);
      } finally {
        publishing.unlock();
      }
    }, settings.get(APPEND_GROUP_BLOCKS), committer, answerer);
  }

  /** One thread for queued tasks, which ends when it had none for a while. */
  private static ThreadPoolExecutor oneThread(String name) {
    ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, IDLE_COMMITTER_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new NamedThreads(name));
    thread.allowCoreThreadTimeOut(true);
    return thread;
  }

  /**
   * Stops committing appends: those queued already are committed and answered (waiting up to
   * {@code waitMillis} for each of the two), those submitted later fail with {@link
   * ShuttingDownException}, and so do those still queued when the wait for the commits ends (a group
   * being committed then completes on its own). Does not close the store. Idempotent.
   */
  public void close(long waitMillis) {
    stop(committer, waitMillis);
    appends.close(); // the store's owner closes it next: what still waits would fail as a closed store
    stop(answerer, waitMillis); // after the committer, which hands it the last groups' answers
  }

  private static void stop(ThreadPoolExecutor thread, long waitMillis) {
    thread.shutdown();
    try {
      thread.awaitTermination(waitMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Whether an append to the space starts without reading the store: the store holds the space
   * and this process has loaded it (then it stays loaded), so {@link #append(AppendCommand,
   * BiConsumer)} may be called from a thread that must not block.
   */
  public boolean appendsWithoutReading(SpaceId spaceId) {
    SpaceState state = spaces.inMemory(spaceId);
    return state != null && state.stored();
  }

  public ServerSettings settings() {
    return settings;
  }

  public SubscriptionBook subscriptions() {
    return subscriptions;
  }

  AuthorityStore<?> store() {
    return store;
  }

  /**
   * Stores the blocks, all or none, in one transaction with the appends of other callers that
   * arrive while another is being committed ({@link AppendQueue}, {@link AppendGroup}); returns
   * once that transaction is durable.
   *
   * @throws InvalidValueException if two blocks share a key but not their content
   * @throws AppendConflictException if keys are stored with different content
   */
  public AppendResult append(AppendCommand command) {
    Prepared prepared = prepare(command);
    try {
      appends.append(prepared.pending());
      return prepared.result();
    } finally {
      spaces.release(prepared.pending().space());
    }
  }

  /**
   * As {@link #append(AppendCommand)}, without holding the caller's thread while the append waits
   * for a group: {@code done} gets the result, or the failure, once the append's transaction is
   * durable (or failed), on the thread that answers its group (or on this one, before this method
   * returns, when the authority is closed). {@code done} must not block. Reads the store only to
   * load a space this process has not served yet ({@link #appendsWithoutReading}).
   *
   * @throws InvalidValueException if two blocks share a key but not their content (then {@code
   *     done} is not called)
   */
  public void append(AppendCommand command, BiConsumer<AppendResult, RuntimeException> done) {
    append(command, Optional.empty(), done);
  }

  /**
   * As {@link #append(AppendCommand, BiConsumer)}, as the next append of a writer's stream: it
   * commits after the stream's earlier appends of its feeds, and is refused if one of them was
   * ({@link AppendOrder}).
   *
   * @throws EarlierAppendRefusedException if an earlier append of the stream was refused for one of
   *     its feeds (then {@code done} is not called)
   */
  public void append(AppendCommand command, AppendOrder order, BiConsumer<AppendResult, RuntimeException> done) {
    append(command, Optional.of(order), done);
  }

  private void append(AppendCommand command, Optional<AppendOrder> order,
      BiConsumer<AppendResult, RuntimeException> done) {
    Prepared prepared = prepare(command);
    if (order.isPresent()) {
      try {
        order.get().admit(prepared.pending());
      } catch (RuntimeException e) {
        spaces.release(prepared.pending().space());
        throw e;
      }
    }
    appends.submit(prepared.pending(), () -> {
      order.ifPresent(o -> o.settled(prepared.pending()));
      AppendResult result;
      try {
        result = prepared.result();
      } catch (RuntimeException e) {
        done.accept(null, e);
        return;
      } finally {
        spaces.release(prepared.pending().space());
      }
      done.accept(result, null);
    });
  }

  /** An append ready for the queue, and where each block of the request finds its position. */
  private record Prepared(PendingAppend pending, int[] slot) {
    /** The answer, once the append is settled; throws its failure. */
    AppendResult result() {
      AppendWork.Outcome outcome = pending.outcome();
      long[] positions = new long[slot.length];
      long[] receivedAt = new long[slot.length];
      for (int i = 0; i < positions.length; i++) {
        positions[i] = outcome.positions()[slot[i]];
        receivedAt[i] = outcome.receivedAt()[slot[i]];
      }
      return new AppendResult(positions, receivedAt, pending.space().token());
    }
  }

  /** Checks and folds repeated keys; acquires the space, which the caller releases once settled. */
  private Prepared prepare(AppendCommand command) {
    List<Block> blocks = command.blocks();
    List<Block> distinct = new ArrayList<>(blocks.size());
    int[] slot = new int[blocks.size()];
    Map<BlockKey, Integer> firstIndex = new HashMap<>();
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i);
      Integer first = firstIndex.putIfAbsent(block.key(), i);
      if (first == null) {
        slot[i] = distinct.size();
        distinct.add(block);
      } else if (blocks.get(first).sameContentAs(block)) {
        slot[i] = slot[first];
      } else {
        throw new InvalidValueException("blocks[" + i + "]", "must not reuse the key of blocks[" + first
            + "] with different content (a key names one block)", block.key().toString());
      }
    }
    return new Prepared(new PendingAppend(spaces.acquire(command.spaceId()), command.namespace(), distinct,
        command.writeCheck()), slot);
  }

  /** Blocks appended inside a {@link SpaceWork}, with the Append's rules. */
  public interface Appender {
    /**
     * Stores the blocks in the work's transaction (at most once per work) and returns the position of each.
     *
     * @throws AppendConflictException if keys are stored with different content
     * @throws StreamClosedException if some are in the feed of a stream that is over
     */
    long[] append(List<Block> blocks);

    /**
     * Holds the space's position counter until the work's transaction ends (storing the space if
     * the store holds nothing of it yet), as an append does: every append of the space commits
     * before the work, and the work sees it, or after it, and sees what the work changed, in this
     * process and in every other sharing the store. A stream's close and delete hold it, so that no
     * block of the stream's feed commits after them unrefused ({@link ClosedFeeds}).
     */
    void holdCounter();
  }

  /** Work in one write transaction that may append blocks to its space: a stream's append with its records. */
  @FunctionalInterface
  public interface SpaceWork<T> {
    T run(AuthorityTransaction tx, Appender appender);
  }

  /**
   * Runs {@code work} in one write transaction, during which it may append blocks to {@code
   * spaceId} (with Append's rules, new feeds without a namespace) and change other records; all of
   * it commits or none. Appended blocks reach the space's live streams after the commit, as an
   * Append's do. Runs one at a time with the groups of appends of this process ({@link #publishing}).
   */
  public <T> T write(SpaceId spaceId, SpaceWork<T> work) {
    SpaceState space = spaces.acquire(spaceId);
    try {
      List<AppendWork.Outcome> outcome = new ArrayList<>(1);
      T result;
      publishing.lock();
      try {
        result = store.write(tx -> {
          outcome.clear();
          return work.run(tx, new Appender() {
            @Override
            public long[] append(List<Block> blocks) {
              if (!outcome.isEmpty()) {
                throw new IllegalStateException("a space work appends once");
              }
              spaces.admit(tx, space);
              AppendWork.Outcome done = new AppendWork(spaceId, Optional.empty(), blocks, FeedWriteCheck.ANY,
                  settings.get(FEEDS_PER_SPACE), closedFeeds, clock.millis()).run(tx);
              outcome.add(done);
              return done.positions();
            }

            @Override
            public void holdCounter() {
              spaces.admit(tx, space);
              tx.blocks().claimPositions(spaceId, 0);
            }
          });
        });
        if (!outcome.isEmpty()) {
          AppendWork.Outcome done = outcome.get(0);
          spaces.stored(space);
          space.tail().record(done.added(), done.chains(), done.namespaces(), done.nextPosition() - 1);
        }
      } finally {
        publishing.unlock();
      }
      if (!outcome.isEmpty()) {
        space.tail().signalWatchers();
      }
      return result;
    } finally {
      spaces.release(space);
    }
  }

  /** Reads from one snapshot of the store. */
  public <T> T read(AuthorityStore.Work<AuthorityTransaction, T> work) {
    return store.read(work);
  }

  /**
   * Reads a page from one snapshot of the store.
   *
   * @throws SubscriptionNotFoundException if the scope names an unknown or expired subscription
   */
  public QueryResult query(ReadRequest request) {
    ResolvedRead read = resolve(request);
    try {
      StartPage start = startPage(read, request.limit(), settings.get(RESPONSE_BYTES));
      return new QueryResult(start.page(), read.space().token(), start.startCursor());
    } finally {
      release(read);
    }
  }

  /**
   * The first page of a read and the cursor it was read after.
   *
   * @param startCursor the cursor the read's start time resolved to, which the answer reports;
   *     empty when the read did not start at a time
   */
  public record StartPage(Page page, Position cursor, OptionalLong startCursor) {}

  /**
   * Reads the first page of a {@link #resolve}d read, a Query's only one or a live stream's first,
   * from one snapshot of the store. A start time is resolved to its cursor ({@link
   * dev.feedstore.core.store.BlockLog#startAfter}) in
   * that same snapshot, so a compaction that runs meanwhile cannot leave the cursor below the floor
   * the page is read against: the read then starts at the new floor.
   */
  public StartPage startPage(ResolvedRead read, int maxBlocks, long maxBytes) {
    SpaceId spaceId = read.space().spaceId();
    return store.read(tx -> {
      Position cursor = read.startTime().isPresent() ? tx.blocks().startAfter(spaceId, read.startTime().getAsLong())
          : read.cursor();
      Page page = PageReader.read(tx, spaceId, read.scope(), cursor, maxBlocks, maxBytes, cursor.isAssigned());
      return new StartPage(page, cursor,
          read.startTime().isPresent() ? OptionalLong.of(cursor.value()) : OptionalLong.empty());
    });
  }

  /**
   * Resolves the scope and cursor of a Query or Watch: looks up (and slides) a subscription, loads
   * the space, takes a durable subscription's acknowledged position as the cursor when asked {@code
   * from_ack}, leaves a start time for the first page to resolve ({@link #startPage}), and takes the
   * cursor as 0 when the caller's expected token is not the space's. The caller {@link #release}s
   * the read when done with it.
   */
  public ResolvedRead resolve(ReadRequest request) {
    Optional<String> subscriptionId = request.scope().subscriptionId();
    Optional<Subscription> subscription = subscriptionId.map(id -> subscriptions.use(id, request.spaceId(),
        request.fromAck()));
    Scope scope = subscription.isPresent() ? subscription.get().scope() : request.scope().direct();
    Position cursor = request.fromAck()
        ? Position.of(subscription.orElseThrow().durable().orElseThrow().acked())
        : request.cursor();
    SpaceState space = spaces.acquire(request.spaceId());
    // A cursor this store computed (an acknowledged position, a start time) needs no token check.
    boolean otherStore = !request.fromAck() && request.startTime().isEmpty() && request.expectedToken().isPresent()
        && !request.expectedToken().get().equals(space.token().value());
    return new ResolvedRead(space, scope, otherStore ? Position.NONE : cursor, subscriptionId, request.startTime());
  }

  /**
   * The scope of a live subscription of {@code spaceId}, looked up without using it: its expiry
   * stays (a read that uses it, {@link #resolve}, moves it).
   *
   * @throws SubscriptionNotFoundException if it is unknown, of another space, or expired
   */
  public Scope subscriptionScope(SpaceId spaceId, String subscriptionId) {
    return subscriptions.find(subscriptionId, spaceId).scope();
  }

  /**
   * The namespace of each of {@code feeds} that {@code spaceId} holds, as stored when the feed was
   * created ({@code Optional.empty()}: none), from one snapshot; feeds it does not hold are left out.
   */
  public Map<FeedId, Optional<Namespace>> feedNamespaces(SpaceId spaceId, Set<FeedId> feeds) {
    return store.read(tx -> tx.feeds().namespaces(spaceId, feeds));
  }

  /** The state of a space, loaded on first contact, for a live query; {@link #releaseSpace} it when done. */
  public SpaceState acquireSpace(SpaceId spaceId) {
    return spaces.acquire(spaceId);
  }

  /** Gives back a space from {@link #acquireSpace}. */
  public void releaseSpace(SpaceState space) {
    spaces.release(space);
  }

  /** Gives back the space of a {@link #resolve}d read. */
  public void release(ResolvedRead read) {
    spaces.release(read.space());
  }

  /** Reads one page for a Watch stream, from one snapshot. */
  public Page readPage(SpaceId spaceId, Scope scope, Position after, int maxBlocks, long maxBytes, boolean withCursorBlock) {
    return store.read(tx -> PageReader.read(tx, spaceId, scope, after, maxBlocks, maxBytes, withCursorBlock));
  }

  /**
   * Stores a subscription, or returns the live durable one of the requested name.
   *
   * @throws InvalidValueException if the TTL is not positive, or the name is taken by another scope
   * @throws dev.feedstore.core.LimitExceededException if the TTL is above the maximum, or the space
   *     holds subscriptions-per-space already
   */
  public SubscribeResult subscribe(SubscribeCommand command) {
    subscriptions.checkTtl(command);
    SpaceState space = spaces.acquire(command.spaceId());
    try {
      SubscriptionBook.Stored stored = subscriptions.create(command);
      return new SubscribeResult(stored.subscription(), space.token(), stored.created());
    } finally {
      spaces.release(space);
    }
  }

  /**
   * Acknowledges a durable subscription up to a position ({@link SubscriptionBook#ack}).
   *
   * @throws InvalidValueException if it is not durable or the position is out of range
   * @throws SubscriptionNotFoundException if it is unknown or expired
   */
  public SubscribeResult ack(SpaceId spaceId, String subscriptionId, long upTo) {
    SpaceState space = spaces.acquire(spaceId);
    try {
      return new SubscribeResult(subscriptions.ack(subscriptionId, spaceId, upTo), space.token(), false);
    } finally {
      spaces.release(space);
    }
  }

  /** The durable subscriptions of a space with its highest position and token, from one snapshot. */
  public DurableList durables(SpaceId spaceId) {
    SpaceState space = spaces.acquire(spaceId);
    try {
      return subscriptions.durables(spaceId, space.token());
    } finally {
      spaces.release(space);
    }
  }

  /**
   * Removes the space's history up to {@code upTo} in small transactions ({@link Compaction}) and
   * raises its floor; readers below the new floor get {@link dev.feedstore.core.CursorCompactedException}.
   * Blocks until done; appends to the space go on meanwhile.
   */
  public CompactResult compact(SpaceId spaceId, Position upTo) {
    SpaceState space = spaces.acquire(spaceId);
    try {
      Compaction.Result result = compaction.compact(spaceId, upTo);
      space.raiseFloor(result.floor().value());
      return new CompactResult(result.floor(), result.removed(), space.token());
    } finally {
      spaces.release(space);
    }
  }

  /**
   * Stores the space's own retention ({@code Optional.empty()}: the server's settings again) and
   * applies it at once ({@link #applyRetention}).
   */
  public RetentionResult setRetention(SpaceId spaceId, Optional<Retention> retention) {
    store.write(tx -> {
      tx.blocks().setRetention(spaceId, retention);
      return null;
    });
    return applyRetention(spaceId);
  }

  /**
   * Compacts the space as far as its retention (its own, or the server's settings) lets go of
   * history now, if that is above its floor.
   */
  public RetentionResult applyRetention(SpaceId spaceId) {
    long now = clock.millis();
    record Plan(Optional<Retention> own, Position cut, Position floor) {}
    Plan plan = store.read(tx -> {
      Optional<Retention> own = tx.blocks().retention(spaceId);
      return new Plan(own, tx.blocks().retentionCut(spaceId, own.orElse(settings.retention()), now),
          tx.blocks().floor(spaceId).position());
    });
    SpaceState space = spaces.acquire(spaceId);
    try {
      Compaction.Result done = plan.cut().isAfter(plan.floor())
          ? compaction.compact(spaceId, plan.cut())
          : new Compaction.Result(plan.floor(), 0);
      space.raiseFloor(done.floor().value());
      return new RetentionResult(plan.own().orElse(settings.retention()), plan.own().isEmpty(), done.floor(),
          done.removed(), space.token());
    } finally {
      spaces.release(space);
    }
  }

  /** The spaces of the store, which retention visits. */
  List<SpaceId> storedSpaces() {
    return store.read(tx -> tx.feeds().spaces());
  }

  /** How many appends wait for the group being committed to finish. */
  int waitingAppends() {
    return appends.waiting();
  }

  /** Groups of appends committed (or tried) so far; a lone append is a group of one. */
  public long appendGroups() {
    return appends.groups();
  }

  /** Appends taken into groups so far. */
  public long groupedAppends() {
    return appends.groupedAppends();
  }

  /**
   * Told by the store that another process committed blocks of the space up to {@code highest}
   * (PostgreSQL's {@code NOTIFY}): the space's watchers in this process are woken and read them from
   * the store, since this process never saw them. Never blocks.
   */
  public void committedElsewhere(SpaceId spaceId, Position highest) {
    SpaceState state = spaces.inMemory(spaceId);
    if (state == null) {
      return; // nobody here follows it; the next load reads the store
    }
    state.tail().record(List.of(), null, Map.of(), highest.value());
    state.tail().signalWatchers();
  }

  /** The spaces this process holds in memory: those whose positions {@link #recheck} reads again. */
  public List<SpaceState> spacesInMemory() {
    return spaces.allInMemory();
  }

  /**
   * Reads the highest position of a space again after commits of other processes may have been
   * missed ({@link dev.feedstore.core.store.CommitListener#missedCommits}), with the history chain
   * where this process last saw one, and moves its tail there ({@link SpaceTail#resync}): forward,
   * waking its watchers to read what they missed from their cursors, or back, when the store lost
   * history this process had seen, ending its open streams. Holds no lock while it reads: the groups
   * of appends go on, however long the store takes.
   *
   * @return true when the space's history went back
   * @throws dev.feedstore.core.store.StoreException if the store cannot be read (try again later)
   */
  public boolean recheck(SpaceState state) {
    SpaceTail tail = state.tail();
    SpaceId spaceId = state.spaceId();
    KnownHistory known = tail.known();
    KnownHistory.Stored stored = store.read(tx -> new KnownHistory.Stored(tx.blocks().maxPosition(spaceId).value(),
        known.chainedAt() > 0 ? tx.blocks().chainAt(spaceId, Position.of(known.chainedAt())) : OptionalLong.empty(),
        tx.blocks().floor(spaceId).position().value()));
    boolean wentBack = tail.resync(known, stored);
    tail.signalWatchers();
    return wentBack;
  }

  /** How many spaces this process has loaded. */
  public int loadedSpaces() {
    return spaces.loadedCount();
  }

  /**
   * A page of the feeds of the space, only those of {@code namespace} if given: at most {@code
   * limit}, in feed id order, after {@code after} if given.
   */
  public FeedList listFeeds(SpaceId spaceId, Optional<Namespace> namespace, Optional<FeedId> after, int limit) {
    SpaceState space = spaces.acquire(spaceId);
    try {
      record Read(List<FeedInfo> feeds, Position max) {}
      Read read = store.read(tx -> new Read(tx.feeds().list(spaceId, namespace, after, limit + 1),
          tx.blocks().maxPosition(spaceId)));
      boolean hasMore = read.feeds().size() > limit;
      List<FeedInfo> page = hasMore ? read.feeds().subList(0, limit) : read.feeds();
      return new FeedList(page, hasMore, read.max(), space.token());
    } finally {
      spaces.release(space);
    }
  }
}
