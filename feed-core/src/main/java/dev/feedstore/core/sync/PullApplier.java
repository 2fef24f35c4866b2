package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.store.SyncState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies one pull answer inside one write transaction: token check (first token, verify, swap),
 * rollback signals 1, 2, 4 and 5, then the blocks and the cursor. Not thread-safe; one per apply.
 */
final class PullApplier {
  private static final int CHECK_BATCH = 1000;
  private final LocalSpace local;
  private final PullTicket ticket;
  private final PullPage page;
  private final AtomicLong epoch;

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
      local.startReplay(state, page.maxPosition());
      return restart(SyncStep.Kind.ROLLED_BACK, evidence + "; replaying up to " + page.maxPosition());
    }
    return store(state);
  }

  private SpaceSync.Applied probed(SyncState state) {
    local.replication.resolveLatest(page.maxPosition());
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
    if (page.cursorBlockReported() && cursor.isAssigned()) {
      // What the replica knows of the cursor: the key recorded with it, else the block it holds there.
      Optional<BlockKey> expected = state.cursorBlock().or(() -> local.at(cursor).map(Block::key));
      if (expected.isPresent() && !expected.equals(page.cursorBlock())) {
        return "rollback signal 5: at the cursor " + cursor + " the authority holds "
            + page.cursorBlock().map(BlockKey::toString).orElse("nothing") + ", the replica "
            + expected.get();
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
    for (Block block : page.blocks()) {
      Optional<Block> holder = local.at(block.position());
      if (holder.isPresent() && !holder.get().key().equals(block.key())) {
        return "rollback signal 1: the authority has " + block.key() + " at " + block.position()
            + " where the replica holds " + holder.get().key();
      }
      Optional<Block> held = local.find(block.key());
      if (held.isPresent() && held.get().isPositioned() && !held.get().position().equals(block.position())) {
        return "rollback signal 2: the authority has " + block.key() + " at " + block.position()
            + ", the replica holds it at " + held.get().position();
      }
    }
    return null;
  }

  private SpaceSync.Applied store(SyncState state) {
    Position cursor = state.cursor();
    Optional<BlockKey> cursorBlock = state.cursorBlock();
    if (page.cursorBlockReported() && cursor.isAssigned() && cursorBlock.isEmpty()) {
      cursorBlock = page.cursorBlock();
    }
    int stored = 0;
    if (state.isReplaying()) {
      // Blocks the replica holds at positions the answer covers, but that the authority does not
      // hold there, were displaced (perhaps by blocks of feeds not replicated here): they lose their
      // position and will be pushed again.
      for (Block displaced : unconfirmed(cursor)) {
        local.tx.blocks().setPosition(local.space, displaced.key(), Position.NONE);
        local.changed.add(displaced.feedId());
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
    Position replayUntil = state.replayUntil();
    if (state.isReplaying() && (page.complete() || cursor.compareTo(replayUntil) >= 0)) {
      replayUntil = Position.NONE;
    }
    local.save(new SyncState(cursor, cursorBlock, state.serverToken(), replayUntil));
    return new SpaceSync.Applied(SyncStep.of(SyncStep.Kind.PULLED, stored,
        "pulled " + page.blocks().size() + " blocks, " + stored + " changed the replica, cursor " + cursor), local, cursor);
  }

  /**
   * Blocks the replica holds positioned in the scope in {@code (cursor, coveredThrough]} whose key
   * the answer does not list at that position.
   */
  private List<Block> unconfirmed(Position cursor) {
    Position through = page.coveredThrough();
    if (!through.isAfter(cursor)) {
      return List.of();
    }
    Map<Position, BlockKey> answered = new HashMap<>();
    page.blocks().forEach(b -> answered.put(b.position(), b.key()));
    List<Block> result = new ArrayList<>();
    Position from = cursor;
    while (true) {
      List<Block> held = local.tx.blocks().after(local.space, ticket.request().scope(), from, CHECK_BATCH);
      for (Block block : held) {
        if (block.position().isAfter(through)) {
          return result;
        }
        if (!block.key().equals(answered.get(block.position()))) {
          result.add(block);
        }
      }
      if (held.size() < CHECK_BATCH) {
        return result;
      }
      from = held.get(held.size() - 1).position();
    }
  }

  private SpaceSync.Applied restart(SyncStep.Kind kind, String detail) {
    epoch.incrementAndGet();
    return done(SyncStep.of(kind, detail));
  }

  private SpaceSync.Applied done(SyncStep step) {
    return new SpaceSync.Applied(step, local, Position.NONE);
  }
}
