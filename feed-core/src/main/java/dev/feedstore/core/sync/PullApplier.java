package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.store.InsertOutcome;
import dev.feedstore.core.store.SyncState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies one pull answer inside one write transaction: token check (first token, verify, swap),
 * rollback signals 1, 2, 4 and 5, then the blocks and the cursor. Not thread-safe; one per apply.
 *
 * <p>Outside a replay, what the replica holds at the answer's positions and under its keys is read
 * in two queries ({@link Held}) before anything changes, and serves both the rollback signals and
 * the storing. When every block of the answer is either new (neither its key nor its position is
 * held) or held exactly as the authority says, storing is one batch insert of the new blocks that
 * the policies admit: what {@link LocalSpace#place} would do block by block, without asking again.
 * Any other answer is stored block by block.
 */
final class PullApplier {
  private static final int CHECK_BATCH = 1000;
  private final LocalSpace local;
  private final PullTicket ticket;
  private final PullPage page;
  private final AtomicLong epoch;
  /** Read once, before the first change of the transaction; null until needed. */
  private Held held;

  /** What the replica holds at the answer's positions and under its keys. */
  private record Held(Map<Position, Block> atPositions, Map<BlockKey, Block> byKey) {

    /**
     * True when {@code block} is stored under its key with its content at its position, and with
     * its receive time unless the authority did not say one.
     */
    boolean exactly(Block block) {
      Block mine = byKey.get(block.key());
      Block holder = atPositions.get(block.position());
      return mine != null && holder != null && holder.key().equals(block.key()) && mine.sameContentAs(block)
          && mine.position().equals(block.position())
          && (block.receivedAt().isEmpty() || mine.receivedAt().equals(block.receivedAt()));
    }

    /** True when neither the key nor the position of {@code block} is held. */
    boolean neither(Block block) {
      return !byKey.containsKey(block.key()) && !atPositions.containsKey(block.position());
    }
  }

  PullApplier(LocalSpace local, PullTicket ticket, PullPage page, AtomicLong epoch) {
    this.local = local;
    this.ticket = ticket;
    this.page = page;
    this.epoch = epoch;
  }

  SpaceSync.Applied apply() {
    if (ticket.epoch() != epoch.get()) {
      return done(SyncStep.of(SyncStep.Kind.STALE, "a recovery or a policy change ran while the pull was out"));
    }
    SyncState state = local.state();
    if (!ticket.probe() && !state.cursor().equals(ticket.cursor())) {
      return done(SyncStep.of(SyncStep.Kind.STALE,
          "the cursor moved from " + ticket.cursor() + " to " + state.cursor() + " while the pull was out"));
    }
    Optional<SyncStep> recovery = local.checkToken(state, page.serverToken());
    if (recovery.isPresent()) {
      epoch.incrementAndGet();
      return done(recovery.get());
    }
    state = local.state();
    if (ticket.probe()) {
      return probed(state);
    }
    if (state.replayUntil().equals(SyncState.REPLAY_BOUND_UNKNOWN)) {
      local.clearAbove(page.maxPosition());
      local.replication.lowerStartsAbove(page.maxPosition());
      state = state.withReplayUntil(page.maxPosition().isAssigned() ? page.maxPosition() : Position.NONE);
    }
    String evidence = rollbackEvidence(state);
    if (evidence != null) {
      unpositionAtCursorIfTheAuthorityHoldsAnother(state.cursor());
      local.startReplay(state, page.maxPosition());
      return restart(SyncStep.Kind.ROLLED_BACK, evidence + "; replaying up to " + page.maxPosition());
    }
    return store(state);
  }

  private SpaceSync.Applied probed(SyncState state) {
    local.replication.resolveLatest(page.maxPosition());
    if (ticket.request().startTime().isPresent()) {
      // An authority that does not know receive times reads from the start and says nothing: then
      // the policy keeps everything rather than guess.
      Position start = page.startCursor().orElse(Position.NONE);
      local.replication.resolveSince(ticket.request().startTime().getAsLong(), start);
      // A start below what the replica pulled already (for other policies of the space) is back-filled.
      SpaceSync.rewind(local.tx, local.space, start);
      state = local.state();
    }
    // Skip the history that no policy wants: jump the cursor to just before the lowest start, but
    // never past a position the replica holds (the pulls that follow must vouch for it).
    long target = local.replication.lowestStart().value() - 1;
    Optional<Block> held = local.tx.blocks().after(local.space, ticket.request().scope(), state.cursor(), 1)
        .stream().findFirst();
    if (held.isPresent()) {
      target = Math.min(target, held.get().position().value() - 1);
    }
    if (target > state.cursor().value()) {
      state = state.withCursor(Position.of(target), Optional.empty());
    }
    local.save(state);
    epoch.incrementAndGet();
    return done(SyncStep.of(SyncStep.Kind.PROBED, "the authority's highest position is " + page.maxPosition()));
  }

  private String rollbackEvidence(SyncState state) {
    Position cursor = state.cursor();
    if (cursor.isAfter(page.maxPosition())) {
      return "rollback signal 4: the cursor " + cursor + " is above the authority's highest position "
          + page.maxPosition();
    }
    if (ticket.knownMax().isAfter(page.maxPosition())) {
      // The same signal for positions the replica got by pushing, which the cursor has not reached.
      return "rollback signal 4: the replica held position " + ticket.knownMax()
          + ", above the authority's highest position " + page.maxPosition();
    }
    Position gap = local.tx.syncStates().historyGap(local.space);
    if (page.cursorBlockReported() && gap.isAfter(page.floor())) {
      // A floor never goes down: the authority was restored from before the compaction, and holds
      // again history this replica skipped.
      return "the authority's floor " + page.floor() + " is below the floor " + gap
          + " this replica met: it was restored from before a compaction";
    }
    if (page.cursorBlockReported() && cursor.isAssigned()) {
      // What the replica knows of the cursor: the key recorded with it, else the block it holds there.
      Optional<BlockKey> expected = state.cursorBlock().or(() -> local.at(cursor).map(Block::key));
      if (expected.isPresent() && !expected.equals(page.cursorBlock())) {
        return "rollback signal 5: at the cursor " + cursor + " the authority holds "
            + page.cursorBlock().map(BlockKey::toString).orElse("nothing") + ", the replica "
            + expected.get();
      }
      // The same key can be at the cursor while blocks below it moved, or with other content (a key
      // reused after a rollback): the history chain, over keys and content, tells.
      if (state.cursorChain().isPresent() && page.cursorChain().isPresent()
          && state.cursorChain().getAsLong() != page.cursorChain().getAsLong()) {
        return "rollback signal 5: the authority's history up to the cursor " + cursor
            + " is not the one the replica pulled (the history chain differs)";
      }
    }
    if (state.isReplaying()) {
      // While replaying, displacements are what the replay repairs; they are not new evidence.
      return null;
    }
    Optional<Block> unconfirmed = unconfirmed(cursor).stream().findFirst();
    if (unconfirmed.isPresent()) {
      return "rollback signal 1: the authority does not hold " + unconfirmed.get().key() + " at "
          + unconfirmed.get().position() + ", where the replica holds it";
    }
    Held lookups = held();
    for (Block block : page.blocks()) {
      Block holder = lookups.atPositions().get(block.position());
      if (holder != null && !holder.key().equals(block.key())) {
        return "rollback signal 1: the authority has " + block.key() + " at " + block.position()
            + " where the replica holds " + holder.key();
      }
      Block mine = lookups.byKey().get(block.key());
      if (mine != null && mine.isPositioned() && !mine.position().equals(block.position())) {
        return "rollback signal 2: the authority has " + block.key() + " at " + block.position()
            + ", the replica holds it at " + mine.position();
      }
    }
    return null;
  }

  /**
   * The authority reports another block at the cursor than the one the replica holds there: the
   * replica's block lost that position, and is pushed again. The replay would find that out by
   * itself, except at the authority's floor, where the block is no longer there to be compared:
   * the key the authority kept with its floor is the only evidence.
   */
  private void unpositionAtCursorIfTheAuthorityHoldsAnother(Position cursor) {
    if (!page.cursorBlockReported() || !cursor.isAssigned()) {
      return;
    }
    Optional<Block> mine = local.at(cursor);
    if (mine.isPresent() && !page.cursorBlock().equals(Optional.of(mine.get().key()))) {
      local.tx.blocks().setPosition(local.space, mine.get().key(), Position.NONE);
      local.changed.block(mine.get().key());
    }
  }

  /** Reads {@link Held}; call only before the transaction changed anything in the space's blocks. */
  private Held held() {
    if (held == null) {
      List<Position> positions = new ArrayList<>(page.blocks().size());
      List<BlockKey> keys = new ArrayList<>(page.blocks().size());
      for (Block block : page.blocks()) {
        positions.add(block.position());
        keys.add(block.key());
      }
      held = new Held(local.tx.blocks().atPositions(local.space, positions),
          local.tx.blocks().findAll(local.space, keys));
    }
    return held;
  }

  /** Whether the answer can be stored in one batch (see the class comment). */
  private boolean storableAtOnce(Held lookups) {
    Set<BlockKey> keys = new HashSet<>();
    for (Block block : page.blocks()) {
      if (!keys.add(block.key()) || !(lookups.neither(block) || lookups.exactly(block))) {
        return false;
      }
    }
    return true;
  }

  private SpaceSync.Applied store(SyncState state) {
    Position cursor = state.cursor();
    Optional<BlockKey> cursorBlock = state.cursorBlock();
    if (page.cursorBlockReported() && cursor.isAssigned() && cursorBlock.isEmpty()) {
      cursorBlock = page.cursorBlock();
    }
    int stored = 0;
    if (!state.isReplaying() && storableAtOnce(held())) {
      // No change was made since held() was read: outside a replay nothing is written before this.
      List<Block> fresh = new ArrayList<>();
      Set<FeedId> ensured = new HashSet<>();
      for (Block block : page.blocks()) {
        Optional<Namespace> namespace = Optional.ofNullable(page.namespaces().get(block.feedId()));
        if (!held.byKey().containsKey(block.key())
            && local.replication.admits(block.feedId(), block.position(), namespace)) {
          if (ensured.add(block.feedId())) {
            local.tx.feeds().ensure(local.space, block.feedId(), namespace);
            namespace.ifPresent(ns -> local.adoptNamespace(block.feedId(), ns));
          }
          fresh.add(block);
          local.changed.block(block.key());
          stored++;
        }
        cursor = block.position();
        cursorBlock = Optional.of(block.key());
      }
      for (InsertOutcome outcome : local.tx.blocks().insertAll(local.space, fresh)) {
        if (!(outcome instanceof InsertOutcome.Inserted)) {
          throw new IllegalStateException("block " + outcome.stored().key() + " appeared while storing a pull");
        }
      }
      return pulled(state, cursor, cursorBlock, stored);
    }
    if (state.isReplaying()) {
      // Blocks the replica holds at positions the answer covers, but that the authority does not
      // hold there, were displaced (perhaps by blocks of feeds not replicated here): they lose their
      // position and will be pushed again.
      for (Block displaced : unconfirmed(cursor)) {
        local.tx.blocks().setPosition(local.space, displaced.key(), Position.NONE);
        local.changed.block(displaced.key());
        stored++;
      }
    }
    for (Block block : page.blocks()) {
      Optional<Block> held = local.find(block.key());
      Optional<Namespace> namespace = Optional.ofNullable(page.namespaces().get(block.feedId()));
      if (held.isPresent() || local.replication.admits(block.feedId(), block.position(), namespace)) {
        if (local.place(block, held, namespace)) {
          stored++;
        }
      }
      cursor = block.position();
      cursorBlock = Optional.of(block.key());
    }
    return pulled(state, cursor, cursorBlock, stored);
  }

  private SpaceSync.Applied pulled(SyncState state, Position cursor, Optional<BlockKey> cursorBlock, int stored) {
    skippedTo().ifPresent(local::recordHistoryGap);
    Position replayUntil = state.replayUntil();
    if (state.isReplaying() && (page.complete() || cursor.compareTo(replayUntil) >= 0)) {
      replayUntil = Position.NONE;
    }
    // The chain at the new cursor: the last block's when the page had blocks; else what was known,
    // or what the authority reported at the cursor if nothing was.
    OptionalLong chain = state.cursorChain();
    if (!page.blocks().isEmpty()) {
      chain = page.lastChain();
    } else if (chain.isEmpty() && page.cursorBlockReported() && cursor.isAssigned()) {
      chain = page.cursorChain();
    }
    if (chain.isPresent() && cursor.isAssigned()) {
      // Kept with the block there too: a cursor moved back later lands where it can check the
      // authority's history again (SpaceSync.rewind).
      local.tx.blocks().setChain(local.space, cursor, chain.getAsLong());
    }
    local.save(new SyncState(cursor, cursorBlock, chain, state.serverToken(), replayUntil));
    return new SpaceSync.Applied(SyncStep.of(SyncStep.Kind.PULLED, stored,
        "pulled " + page.blocks().size() + " blocks, " + stored + " changed the replica, cursor " + cursor), local, cursor);
  }

  /**
   * Blocks the replica holds positioned in the scope in {@code (cursor, coveredThrough]} whose key
   * the answer does not list at that position.
   */
  private List<Block> unconfirmed(Position cursor) {
    // Below the floor the authority holds nothing to confirm: blocks there are kept as they are.
    cursor = skippedTo().orElse(cursor);
    Position through = page.coveredThrough();
    if (!through.isAfter(cursor)) {
      return List.of();
    }
    Map<Position, BlockKey> answered = null;
    List<Block> result = new ArrayList<>();
    Position from = cursor;
    while (true) {
      // Positions are unique per space, so (from, through] holds at most through - from blocks: a
      // limit of that many reads nothing beyond the range (a replica that pushed ahead of its
      // pulls holds many blocks above it).
      int limit = (int) Math.min(CHECK_BATCH, through.value() - from.value());
      List<Block> held = local.tx.blocks().after(local.space, ticket.request().scope(), from, limit);
      if (answered == null && !held.isEmpty()) {
        answered = new HashMap<>();
        for (Block block : page.blocks()) {
          answered.put(block.position(), block.key());
        }
      }
      for (Block block : held) {
        if (block.position().isAfter(through)) {
          return result;
        }
        if (!block.key().equals(answered.get(block.position()))) {
          result.add(block);
        }
      }
      if (held.size() < limit || limit < CHECK_BATCH) {
        return result;
      }
      from = held.get(held.size() - 1).position();
    }
  }

  /**
   * The authority's floor, when this answer started above it without having been asked to: only an
   * answer to cursor 0 does (a cursor above 0 and below the floor is refused instead). Empty when the
   * answer covers the positions up to the floor (it was read before a compaction).
   */
  private Optional<Position> skippedTo() {
    Position floor = page.floor();
    if (ticket.cursor().isAssigned() || !floor.isAssigned()) {
      return Optional.empty();
    }
    boolean startsAbove = page.blocks().isEmpty() || page.blocks().get(0).position().isAfter(floor);
    return startsAbove ? Optional.of(floor) : Optional.empty();
  }

  private SpaceSync.Applied restart(SyncStep.Kind kind, String detail) {
    epoch.incrementAndGet();
    return done(SyncStep.of(kind, detail));
  }

  private SpaceSync.Applied done(SyncStep step) {
    return new SpaceSync.Applied(step, local, Position.NONE);
  }
}
