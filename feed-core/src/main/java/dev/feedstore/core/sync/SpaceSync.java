package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.store.SyncState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Push and pull of one space, one step at a time (DESIGN 5.2-5.4).
 *
 * <p>A step has three parts: {@code begin} reads what to send, the caller talks to the authority,
 * {@code apply} stores the answer in one local transaction. The caller may run the middle part on
 * any thread, fail it, or never finish it; {@link #pushStep} and {@link #pullStep} do all three
 * with a given {@link Authority}. Every answer is checked against the authority's token and the
 * rollback signals before anything is stored, and an answer to a request made from state that
 * changed in the meantime (another pull moved the cursor, a recovery ran) is dropped as {@link
 * SyncStep.Kind#STALE}: push and pull never interleave their state updates.
 *
 * <p>Blocks are stored with checksums; a block whose stored bytes changed is met as a {@link
 * CorruptBlockException}, and {@link #setAside} repairs what can be repaired: a copy of a block the
 * authority holds is fetched again, an only copy is kept aside and never pushed.
 *
 * <p>Applies commit with {@link FeedStore#writeRelaxed}: what they store is the authority's answer
 * and the sync state that goes with it, which a replica can always fetch again; a power cut may
 * take back the last applies (cursor and blocks together), never a local write, which commits with
 * a full {@link FeedStore#write} and makes every apply before it durable too.
 *
 * <p>Thread-safe: applies are serialized per space; begins may run at any time.
 */
public final class SpaceSync {
  /** The default number of blocks per pull page. */
  public static final int DEFAULT_PULL_LIMIT = 500;
  /** The default number of blocks per push. */
  public static final int DEFAULT_PUSH_LIMIT = 500;

  private final SpaceId space;
  private final FeedStore store;
  private final SyncListener listener;
  private final int pullLimit;
  private final int pushLimit;
  private final ReentrantLock applyLock = new ReentrantLock();
  private final AtomicLong epoch = new AtomicLong();
  private volatile Position lastKnownMax = Position.NONE;
  /** The authority's limits as last given to a begin: pushes skip the blocks they make too large. */
  private volatile AuthorityLimits limits = AuthorityLimits.DEFAULTS;
  /**
   * The feeds the authority takes no new blocks in (their streams are over), each with the
   * authority's words: pushes leave their blocks out. Learned from refusals, so held in memory: a
   * replica opened again learns them again from its first refused push. Forgotten on a swap or a
   * rollback, after which the authority may hold the streams' records no more.
   */
  private final Map<FeedId, String> closedFeeds = new ConcurrentHashMap<>();

  public SpaceSync(SpaceId space, FeedStore store, SyncListener listener, int pullLimit, int pushLimit) {
    if (pullLimit < 1 || pushLimit < 1) {
      throw new IllegalArgumentException("pull and push limits must be >= 1, were " + pullLimit + " and " + pushLimit);
    }
    this.space = space;
    this.store = store;
    this.listener = listener;
    this.pullLimit = pullLimit;
    this.pushLimit = pushLimit;
  }

  public SpaceSync(SpaceId space, FeedStore store, SyncListener listener) {
    this(space, store, listener, DEFAULT_PULL_LIMIT, DEFAULT_PUSH_LIMIT);
  }

  public SpaceId space() {
    return space;
  }

  /**
   * Makes every request in flight stale. Call after changing this space's replication policies,
   * so that no answer computed for the old scope moves the cursor.
   */
  public void invalidate() {
    epoch.incrementAndGet();
  }

  // ---------------------------------------------------------------- pull

  /** {@link #beginPull(AuthorityLimits)} with the limits last given. */
  public Optional<PullTicket> beginPull() {
    return beginPull(limits);
  }

  /**
   * What to read next, or empty when nothing of this space is replicated. A probe (which only asks
   * for the authority's highest position) comes first while a live-tail policy is unresolved. A
   * page asks for at most the pull limit and the authority's {@code query-limit}.
   */
  public Optional<PullTicket> beginPull(AuthorityLimits authorityLimits) {
    adoptLimits(authorityLimits);
    int pageLimit = Math.min(pullLimit, authorityLimits.queryLimit());
    long currentEpoch = epoch.get();
    return store.read(tx -> {
      ReplicationView replication = new ReplicationView(tx, space);
      Scope scope = replication.scope();
      if (scope.isEmpty()) {
        return Optional.empty();
      }
      SyncState state = tx.syncStates().get(space);
      java.util.OptionalLong since = replication.unresolvedSince();
      boolean probe = replication.hasUnresolvedLatest() || since.isPresent();
      Position cursor = since.isPresent() ? Position.NONE : probe ? Position.of(Long.MAX_VALUE - 1) : state.cursor();
      PullRequest request = new PullRequest(space, scope, cursor, probe ? 1 : pageLimit, state.serverToken(), since);
      return Optional.of(new PullTicket(request, currentEpoch, probe, tx.blocks().maxPosition(space)));
    });
  }

  /**
   * Stores the answer to {@code ticket}. If the replica meets a block of its own stored corrupt on
   * the way, nothing of the answer is stored: the block is {@linkplain #setAside set aside} and the
   * outcome is {@link SyncStep.Kind#SET_ASIDE}.
   *
   * @return the outcome, and the ticket for the next page of the same stream when the answer was
   *     applied (a Watch stream may continue with it; after any other outcome it must restart)
   */
  public PullResult applyPull(PullTicket ticket, PullPage page) {
    return settingAside(() -> applyPullChecked(ticket, page), step -> new PullResult(step, Optional.empty()));
  }

  private PullResult applyPullChecked(PullTicket ticket, PullPage page) {
    applyLock.lock();
    try {
      lastKnownMax = page.maxPosition();
      Applied applied = committed(() -> {
        Applied pulled = store.writeRelaxed(tx -> new PullApplier(new LocalSpace(tx, space), ticket, page, epoch).apply());
        if ((pulled.step.kind() == SyncStep.Kind.SWAPPED || pulled.step.kind() == SyncStep.Kind.ROLLED_BACK)
            && !closedFeeds.isEmpty()) {
          closedFeeds.clear();
          listener.refusalsChanged(space);
        }
        return pulled;
      });
      Optional<PullTicket> next = applied.step.kind() == SyncStep.Kind.PULLED
          ? Optional.of(ticket.continueAt(applied.cursor))
          : Optional.empty();
      return new PullResult(applied.step, next);
    } finally {
      applyLock.unlock();
    }
  }

  /** Begins a pull, asks {@code authority}, applies the answer. */
  public SyncStep pullStep(Authority authority) {
    Optional<PullTicket> ticket = beginPull(authority.limits());
    if (ticket.isEmpty()) {
      return SyncStep.of(SyncStep.Kind.IDLE, "nothing is replicated in " + space);
    }
    PullPage page;
    try {
      page = authority.pull(ticket.get().request());
    } catch (AuthorityLimitException over) {
      return overLimit(over);
    } catch (CompactedHistoryException compacted) {
      return applyCompacted(ticket.get(), compacted);
    }
    return applyPull(ticket.get(), page).step();
  }

  /**
   * The authority refused the pull of {@code ticket} because it compacted the history after its
   * cursor. In one local transaction the cursor moves up to the authority's floor (the answer there
   * says which block the authority kept at the floor, and its history chain, which the following
   * pulls check as at any cursor), every block the replica holds is kept, and the floor is recorded
   * as the space's history gap: {@link #historyUnavailable()} reports it for as long as the
   * replication policies need positions up to it, and the listener is told. Pulls go on from the
   * floor. A refusal of a request made from state that changed meanwhile is {@link
   * SyncStep.Kind#STALE} and changes nothing.
   */
  public SyncStep applyCompacted(PullTicket ticket, CompactedHistoryException compacted) {
    applyLock.lock();
    try {
      Position floor = compacted.floor();
      Applied applied = committed(() -> store.writeRelaxed(tx -> {
        LocalSpace local = new LocalSpace(tx, space);
        SyncState state = local.state();
        if (ticket.epoch() != epoch.get() || ticket.probe() || !state.cursor().equals(ticket.cursor())) {
          return new Applied(SyncStep.of(SyncStep.Kind.STALE, "the state changed while the pull was out"), local,
              Position.NONE);
        }
        if (!floor.isAfter(state.cursor())) {
          throw new AuthorityException("the authority refused cursor " + state.cursor() + " as below its floor "
              + floor + ", which is not above it", false, compacted);
        }
        local.recordHistoryGap(floor);
        local.save(state.withCursor(floor, Optional.empty()));
        return new Applied(SyncStep.of(SyncStep.Kind.RESUMED_AT_FLOOR, "the authority compacted its history up to "
            + floor + ", above the cursor " + state.cursor() + ": pulling on from the floor, keeping every block"
            + " held"), local, floor);
      }));
      if (applied.step.kind() == SyncStep.Kind.RESUMED_AT_FLOOR) {
        epoch.incrementAndGet();
      }
      return applied.step;
    } finally {
      applyLock.unlock();
    }
  }

  // ---------------------------------------------------------------- push

  /** {@link #beginPush(AuthorityLimits)} with the limits last given. */
  public Optional<PushBatch> beginPush() {
    return beginPush(limits);
  }

  /**
   * The next unpositioned blocks of replicated feeds to append, or empty when there are none. The
   * blocks are marked published first (from here on their content may be on the authority), in a
   * short local transaction.
   *
   * @throws CorruptBlockException if one of them is stored corrupt ({@link #setAside} it; {@link
   *     #pushStep} does)
   *
   * <p>The batch fits {@code authorityLimits}: at most the push limit and {@code blocks-per-append}
   * blocks, at most {@link AuthorityLimits#pushBytes()} in the request. Blocks whose data is over
   * {@link AuthorityLimits#maxPushableData()} are left out, and every other block keeps syncing; they
   * are {@link #refused()} until the limits allow them. The blocks of the feeds the authority takes
   * no new blocks in are left out too ({@link #refusedInClosedFeeds()}).
   */
  public Optional<PushBatch> beginPush(AuthorityLimits authorityLimits) {
    return beginPushes(authorityLimits, 1).stream().findFirst();
  }

  /**
   * As {@link #beginPush}, up to {@code maxBatches} batches to send in order ({@link
   * Authority#appendInOrder}), each fitting {@code authorityLimits}, the blocks of each following
   * those of the one before in push order; none when there is nothing to push.
   */
  public List<PushBatch> beginPushes(AuthorityLimits authorityLimits, int maxBatches) {
    if (maxBatches < 1) {
      throw new IllegalArgumentException("maxBatches must be >= 1, was " + maxBatches);
    }
    adoptLimits(authorityLimits);
    int maxBlocks = Math.min(pushLimit, authorityLimits.blocksPerAppend());
    int maxBlockData = authorityLimits.maxPushableData();
    long maxBytes = authorityLimits.pushBytes();
    long currentEpoch = epoch.get();
    Set<FeedId> leftOut = Set.copyOf(closedFeeds.keySet());
    // Most calls find nothing to send (the round after a push): learn that from a reader, without
    // waiting for the writer, which a local append may hold through its commit's fsync.
    boolean anything = store.read(tx -> {
      Scope scope = new ReplicationView(tx, space).scope();
      return !scope.isEmpty() && !tx.blocks().unpositioned(space, scope, leftOut, 1, maxBlockData, 0).isEmpty();
    });
    if (!anything) {
      return List.of();
    }
    return store.write(tx -> {
      ReplicationView replication = new ReplicationView(tx, space);
      Scope scope = replication.scope();
      if (scope.isEmpty()) {
        return List.<PushBatch>of();
      }
      int windowBlocks = (int) Math.min(Integer.MAX_VALUE, (long) maxBlocks * maxBatches);
      long windowBytes = maxBytes > Long.MAX_VALUE / maxBatches ? Long.MAX_VALUE : maxBytes * maxBatches;
      List<Block> pending = tx.blocks().unpositioned(space, scope, leftOut, windowBlocks, maxBlockData, windowBytes);
      if (pending.isEmpty()) {
        return List.<PushBatch>of();
      }
      // One request creates feeds with one namespace: send the feeds that share the first one's.
      Map<FeedId, Optional<Namespace>> namespaces = new HashMap<>();
      Optional<Namespace> namespace = replication.namespaceOf(pending.get(0).feedId());
      List<List<Block>> cut = new ArrayList<>();
      List<Block> batch = new ArrayList<>();
      long bytes = 0;
      for (Block block : pending) {
        if (!namespaces.computeIfAbsent(block.feedId(), replication::namespaceOf).equals(namespace)) {
          continue;
        }
        long size = AuthorityLimits.sizeInAppend(block);
        if (!batch.isEmpty() && (batch.size() == maxBlocks || bytes + size > maxBytes)) {
          cut.add(batch);
          if (cut.size() == maxBatches) {
            batch = List.of();
            break;
          }
          batch = new ArrayList<>();
          bytes = 0;
        }
        bytes += size;
        batch.add(block);
      }
      if (!batch.isEmpty()) {
        cut.add(batch);
      }
      List<PushBatch> batches = new ArrayList<>(cut.size());
      for (List<Block> blocks : cut) {
        List<BlockKey> keys = blocks.stream().map(Block::key).toList();
        Set<BlockKey> firstSent = tx.blocks().unpublished(space, keys);
        tx.blocks().markPublished(space, firstSent, true);
        batches.add(new PushBatch(blocks, namespace, currentEpoch, firstSent));
      }
      return batches;
    });
  }

  /**
   * Stores the positions the authority gave to a pushed batch (or, meeting a block stored corrupt,
   * {@linkplain #setAside sets it aside} instead).
   */
  public SyncStep applyPush(PushBatch batch, AppendReply reply) {
    if (reply.positions().size() != batch.blocks().size()) {
      throw new AuthorityException("the authority answered " + reply.positions().size() + " positions for "
          + batch.blocks().size() + " blocks", false, null);
    }
    return settingAside(() -> applyPushChecked(batch, reply), step -> step);
  }

  private SyncStep applyPushChecked(PushBatch batch, AppendReply reply) {
    applyLock.lock();
    try {
      Applied applied = committed(() -> store.writeRelaxed(
          tx -> new PushApplier(new LocalSpace(tx, space), batch, epoch).apply(reply)));
      return applied.step;
    } finally {
      applyLock.unlock();
    }
  }

  /**
   * The authority refused a pushed batch because it holds some of its keys with other content: the
   * replica's blocks under those keys get new sequences (content, author and links kept), to be
   * pushed again (or, meeting a block stored corrupt, {@linkplain #setAside sets it aside} instead).
   */
  public SyncStep applyConflict(PushBatch batch, SequenceConflictException conflict) {
    return settingAside(() -> applyConflictChecked(batch, conflict), step -> step);
  }

  private SyncStep applyConflictChecked(PushBatch batch, SequenceConflictException conflict) {
    applyLock.lock();
    try {
      Applied applied = committed(() -> store.writeRelaxed(tx -> {
        LocalSpace local = new LocalSpace(tx, space);
        // The authority wrote nothing of the request: what it sent for the first time is still
        // unpublished, so the links of those blocks may follow the blocks moved aside below.
        tx.blocks().markPublished(space, batch.firstSent(), false);
        int moved = 0;
        for (var key : conflict.keys()) {
          Optional<Block> block = local.find(key);
          if (block.isPresent() && !block.get().isPositioned()) {
            local.moveAside(block.get());
            moved++;
          }
        }
        return new Applied(SyncStep.of(SyncStep.Kind.REKEYED, moved,
            "the authority holds " + conflict.keys().size() + " pushed keys with other content; " + moved
                + " local blocks got new sequences"), local, Position.NONE);
      }));
      return applied.step;
    } finally {
      applyLock.unlock();
    }
  }

  /**
   * The authority refused a pushed batch as over one of its limits: it stored nothing, so what the
   * batch sent for the first time is unpublished again. The next batch, made from the narrowed
   * limits, is smaller.
   */
  public SyncStep applyOverLimit(PushBatch batch, AuthorityLimitException over) {
    unpublish(batch);
    return overLimit(over);
  }

  /**
   * The authority refused a pushed batch because some of its blocks are in feeds it takes no new
   * blocks in (the feeds of Durable Streams that are over): it stored nothing, so what the batch
   * sent for the first time is unpublished again. Those feeds' blocks are kept, left out of pushes
   * from now on and listed as refused ({@link #closedFeeds()}); the next batch carries the others.
   *
   * @throws AuthorityException if the authority named none of the batch's feeds (pushing again
   *     would be refused the same way)
   */
  public SyncStep applyClosedFeeds(PushBatch batch, ClosedFeedsException closed) {
    applyLock.lock();
    try {
      List<Block> held = batch.blocks().stream().filter(block -> closed.feeds().contains(block.feedId())).toList();
      if (held.isEmpty()) {
        throw new AuthorityException("the authority refused feeds " + closed.feeds() + " as closed, which the pushed"
            + " batch does not write: " + closed.getMessage(), false, closed);
      }
      store.writeRelaxed(tx -> {
        tx.blocks().markPublished(space, batch.firstSent(), false);
        return null;
      });
      listener.committing(() -> {
        closed.feeds().forEach(feed -> closedFeeds.put(feed, closed.getMessage()));
        listener.refusalsChanged(space);
        return null;
      });
      return SyncStep.of(SyncStep.Kind.FEEDS_CLOSED, held.size(), "the authority takes no new blocks in feeds "
          + closed.feeds() + " (" + closed.getMessage() + "): their blocks stay here unpushed, the others are pushed");
    } finally {
      applyLock.unlock();
    }
  }

  /**
   * Begins a push, sends it to {@code authority}, applies the answer (or the conflict, or the
   * refusal). A block found corrupt on the way is set aside instead ({@link SyncStep.Kind#SET_ASIDE}).
   */
  public SyncStep pushStep(Authority authority) {
    return pushSteps(authority, 1).get(0);
  }

  /**
   * As {@link #pushStep}, with up to {@code maxBatches} batches sent in order at once ({@link
   * Authority#appendInOrder}): each answer is applied as {@link #pushStep} applies it, in order. A
   * batch aborted after the refusal of an earlier one of its feeds wrote nothing: what it sent for
   * the first time is unpublished again (before the refusal is applied, so that a re-keyed block's
   * successors in it follow the new key), and it is sent again by a later push. A failure that is
   * neither an answer nor a refusal handled here is thrown once the other answers are applied.
   *
   * @return one step per batch sent, or the {@link SyncStep.Kind#IDLE} or {@link
   *     SyncStep.Kind#SET_ASIDE} step alone
   */
  public List<SyncStep> pushSteps(Authority authority, int maxBatches) {
    List<PushBatch> batches;
    try {
      batches = beginPushes(authority.limits(), maxBatches);
    } catch (CorruptBlockException e) {
      if (!e.spaceId().equals(space)) {
        throw e;
      }
      return List.of(setAside(e));
    }
    if (batches.isEmpty()) {
      return List.of(SyncStep.of(SyncStep.Kind.IDLE, "nothing to push in " + space));
    }
    List<AppendOutcome> outcomes = batches.size() == 1
        ? List.of(appendOne(authority, batches.get(0)))
        : authority.appendInOrder(space, batches.stream().map(b -> new AppendCall(b.namespace(), b.blocks())).toList());
    for (int i = 0; i < batches.size(); i++) {
      if (outcomes.get(i).failure().orElse(null) instanceof AppendAbortedException) {
        unpublish(batches.get(i));
      }
    }
    List<SyncStep> steps = new ArrayList<>(batches.size());
    AuthorityException unhandled = null;
    for (int i = 0; i < batches.size(); i++) {
      PushBatch batch = batches.get(i);
      AppendOutcome outcome = outcomes.get(i);
      if (outcome.reply().isPresent()) {
        steps.add(applyPush(batch, outcome.reply().get()));
        continue;
      }
      AuthorityException failure = outcome.failure().get();
      if (failure instanceof SequenceConflictException conflict) {
        steps.add(applyConflict(batch, conflict));
      } else if (failure instanceof AuthorityLimitException over) {
        steps.add(applyOverLimit(batch, over));
      } else if (failure instanceof ClosedFeedsException closed) {
        steps.add(applyClosedFeeds(batch, closed));
      } else if (!(failure instanceof AppendAbortedException) && unhandled == null) {
        unhandled = failure;
      }
    }
    if (unhandled != null) {
      throw unhandled;
    }
    return steps;
  }

  /** One batch sent alone: its answer, or the failure {@link #pushSteps} applies (others are thrown). */
  private AppendOutcome appendOne(Authority authority, PushBatch batch) {
    try {
      return AppendOutcome.replied(authority.append(space, batch.namespace(), batch.blocks()));
    } catch (SequenceConflictException | AuthorityLimitException | ClosedFeedsException refused) {
      return AppendOutcome.failed(refused);
    }
  }

  /** The authority wrote nothing of the batch: what it sent for the first time is unpublished again. */
  private void unpublish(PushBatch batch) {
    applyLock.lock();
    try {
      store.writeRelaxed(tx -> {
        tx.blocks().markPublished(space, batch.firstSent(), false);
        return null;
      });
    } finally {
      applyLock.unlock();
    }
  }

  private static SyncStep overLimit(AuthorityLimitException over) {
    return SyncStep.of(SyncStep.Kind.OVER_LIMIT, over.getMessage() + "; sending less from now on ("
        + over.limitKey() + " " + over.limit() + ")");
  }

  // ---------------------------------------------------------------- corrupt blocks

  /**
   * Sets aside a block of this space that a read found corrupt, in one local transaction: the
   * replica fetches it again from the authority when the authority holds it (its position was
   * confirmed and its feed is pulled from there), otherwise it is lost to sync, kept aside in the
   * file and never pushed. Every request in flight becomes stale, since the cursor may have moved
   * back. The applies of this class do this by themselves when they meet a corrupt block; callers
   * that read blocks themselves call it.
   *
   * @return the {@link SyncStep.Kind#SET_ASIDE} step, whose detail says which block and what follows
   * @throws IllegalArgumentException if the block is of another space
   */
  public SyncStep setAside(CorruptBlockException corrupt) {
    if (!corrupt.spaceId().equals(space)) {
      throw new IllegalArgumentException("block " + corrupt.key() + " is of space " + corrupt.spaceId()
          + ", not " + space);
    }
    applyLock.lock();
    try {
      Applied applied = committed(() -> store.write(tx -> {
        LocalSpace local = new LocalSpace(tx, space);
        return new Applied(local.setAside(corrupt), local, Position.NONE);
      }));
      epoch.incrementAndGet();
      return applied.step;
    } finally {
      applyLock.unlock();
    }
  }

  /** Runs {@code work}; if it meets a corrupt block of this space, sets it aside and answers with that step. */
  private <T> T settingAside(Supplier<T> work, Function<SyncStep, T> instead) {
    try {
      return work.get();
    } catch (CorruptBlockException e) {
      if (!e.spaceId().equals(space)) {
        throw e;
      }
      return instead.apply(setAside(e));
    }
  }

  // ---------------------------------------------------------------- rewinds

  /**
   * Moves the cursor of {@code space} back so that the pulls that follow fetch again the positions
   * after {@code target} (a back-fill, a block set aside), inside the caller's write transaction;
   * nothing when the cursor is at or below {@code target} already.
   *
   * <p>A cursor moved without the authority has no chain the authority reported there, and the
   * answer that followed would be taken on trust: after a rollback whose blocks line up with the
   * replica's again at the new cursor (the same keys, other content or other blocks below), nothing
   * would tell. So the cursor lands on the highest position at or below {@code target} where the
   * replica recorded the authority's history chain when it pulled (one a page), with that chain,
   * and the next answer checks the authority's history up to there (signal 5). With no chain
   * recorded there it goes back to the start, where nothing needs checking. Pulls that fetch again
   * what the replica holds skip it by key. Reads no block (a block stored corrupt is met by the pull
   * that follows, as any other).
   */
  public static void rewind(StoreTransaction tx, SpaceId space, Position target) {
    SyncState state = tx.syncStates().get(space);
    if (!state.cursor().isAfter(target)) {
      return;
    }
    Optional<Position> chained = tx.blocks().chainedAtOrBelow(space, target);
    if (chained.isEmpty()) {
      tx.syncStates().put(space, state.withCursor(Position.NONE, Optional.empty()));
      return;
    }
    Position at = chained.get();
    tx.syncStates().put(space, state.withCursor(at, Optional.empty(), tx.blocks().chainAt(space, at)));
  }

  // ---------------------------------------------------------------- status

  /** Unpositioned blocks of replicated feeds: what is left to push (refused blocks included). */
  public long pendingPush() {
    return store.read(tx -> {
      Scope scope = new ReplicationView(tx, space).scope();
      return scope.isEmpty() ? 0L : tx.blocks().countUnpositioned(space, scope);
    });
  }

  /**
   * The unpositioned blocks of replicated feeds that push leaves out because the authority would
   * refuse them (their data is over {@link AuthorityLimits#maxPushableData()} of the limits last
   * given): their keys and data sizes, in push order. They are pushed once the limits allow them.
   */
  public Map<BlockKey, Integer> refused() {
    int maxBlockData = limits.maxPushableData();
    return store.read(tx -> {
      Scope scope = new ReplicationView(tx, space).scope();
      return scope.isEmpty()
          ? Map.<BlockKey, Integer>of()
          : tx.blocks().unpositionedLarger(space, scope, maxBlockData, Integer.MAX_VALUE);
    });
  }

  /**
   * Takes the authority's limits for the next pushes. When they move the largest data a push
   * carries, other blocks become {@linkplain #refused() refused} (or stop being), which the
   * listener is told inside {@link SyncListener#committing}, in the order of commits.
   */
  private void adoptLimits(AuthorityLimits given) {
    if (given.maxPushableData() == limits.maxPushableData()) {
      limits = given;
      return;
    }
    listener.committing(() -> {
      limits = given;
      listener.refusalsChanged(space);
      return null;
    });
  }

  /**
   * The feeds this replica pushes and pulls in {@code space} ({@link #refused()} counts only
   * theirs), read in the caller's transaction.
   */
  public static Scope replicatedScope(StoreTransaction tx, SpaceId space) {
    return new ReplicationView(tx, space).scope();
  }

  /**
   * The feeds the authority takes no new blocks in, learned from its refusals ({@link
   * SyncStep.Kind#FEEDS_CLOSED}), each with the authority's words.
   */
  public Map<FeedId, String> closedFeeds() {
    return Map.copyOf(closedFeeds);
  }

  /**
   * The unpositioned blocks of the feeds the authority takes no new blocks in ({@link
   * #closedFeeds()}): their keys and data sizes, in push order. Kept, never pushed.
   */
  public Map<BlockKey, Integer> refusedInClosedFeeds() {
    Set<FeedId> closed = Set.copyOf(closedFeeds.keySet());
    if (closed.isEmpty()) {
      return Map.of();
    }
    // Every block's data is larger than -1 bytes: all of those feeds' unpositioned blocks.
    return store.read(tx -> tx.blocks().unpositionedLarger(space, Scope.feeds(closed), -1, Integer.MAX_VALUE));
  }

  /** The authority's limits as last given to {@link #beginPush(AuthorityLimits)} or {@link #beginPull(AuthorityLimits)}. */
  public AuthorityLimits limits() {
    return limits;
  }

  /**
   * An upper bound of what is left to pull: positions between the cursor and the authority's
   * highest position at the last answer (positions of feeds not replicated here count too).
   */
  public long pendingPullBound() {
    long cursor = state().cursor().value();
    return Math.max(0, lastKnownMax.value() - cursor);
  }

  public SyncState state() {
    return store.read(tx -> tx.syncStates().get(space));
  }

  /** The current epoch; it changes on every recovery and policy change. */
  public long epoch() {
    return epoch.get();
  }

  /**
   * Runs {@code commit} and tells the listener what it changed, both inside {@link
   * SyncListener#committing}.
   */
  private Applied committed(Supplier<Applied> commit) {
    return listener.committing(() -> {
      Applied applied = commit.get();
      notify(applied.local);
      return applied;
    });
  }

  private void notify(LocalSpace local) {
    if (!local.changed.isEmpty()) {
      listener.feedsChanged(space, local.changed.toChanges());
    }
    if (local.historyUnavailable != null) {
      listener.historyUnavailable(space, local.historyUnavailable);
    }
  }

  /**
   * The authority's floor up to which this replica's history may miss blocks its replication
   * policies need: the authority compacted them before the replica pulled them. Empty when nothing
   * is missing, or when no policy needs positions that low any more (the gap is kept in the file,
   * and reported again if a policy comes to need it). A swap to another store forgets it.
   */
  public Optional<Position> historyUnavailable() {
    return store.read(tx -> new LocalSpace(tx, space).historyUnavailable());
  }

  /**
   * The history gap of {@code space} as {@link #historyUnavailable()} reports it, read in the
   * caller's transaction, when {@code scope} covers feeds the replication policies pull (a feed with
   * a policy, a replicated namespace, or any feed when the whole space is replicated): what a read of
   * the scope misses. Empty otherwise.
   */
  public static Optional<Position> historyUnavailable(StoreTransaction tx, SpaceId space, Scope scope) {
    LocalSpace local = new LocalSpace(tx, space);
    Optional<Position> gap = local.historyUnavailable();
    return gap.isPresent() && overlaps(tx, space, scope, local.replication.scope()) ? gap : Optional.empty();
  }

  /** Whether a feed could be in both scopes: one that exists, or one that a namespace of both would hold. */
  private static boolean overlaps(StoreTransaction tx, SpaceId space, Scope one, Scope other) {
    if (one.isEmpty() || other.isEmpty()) {
      return false;
    }
    if (!(one instanceof Scope.Selection a) || !(other instanceof Scope.Selection b)) {
      return true;
    }
    if (a.namespaces().stream().anyMatch(b.namespaces()::contains) || a.feeds().stream().anyMatch(b.feeds()::contains)) {
      return true;
    }
    return tx.feeds().list(space, Optional.empty()).stream()
        .anyMatch(feed -> one.covers(feed.feedId(), feed.namespace()) && other.covers(feed.feedId(), feed.namespace()));
  }

  /** The outcome of an apply and the transaction's view (for its changed feeds). */
  record Applied(SyncStep step, LocalSpace local, Position cursor) {}

  /** The outcome of applying a pull answer, and how a stream may continue. */
  public record PullResult(SyncStep step, Optional<PullTicket> next) {}
}
