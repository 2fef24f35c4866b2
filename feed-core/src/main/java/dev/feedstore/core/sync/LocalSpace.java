package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.store.SyncState;
import java.util.List;
import java.util.Optional;

/**
 * The replica's copy of one space inside one write transaction, with the moves recovery is made of.
 * Records which blocks and feeds changed. Not thread-safe; lives as long as its transaction.
 */
final class LocalSpace {
  final StoreTransaction tx;
  final SpaceId space;
  final ReplicationView replication;
  final ChangeSet changed = new ChangeSet();
  /** The floor this transaction recorded as a new history gap that the policies need; null if none. */
  Position historyUnavailable;

  LocalSpace(StoreTransaction tx, SpaceId space) {
    this.tx = tx;
    this.space = space;
    this.replication = new ReplicationView(tx, space);
  }

  SyncState state() {
    return tx.syncStates().get(space);
  }

  void save(SyncState state) {
    tx.syncStates().put(space, state);
  }

  Optional<Block> find(BlockKey key) {
    return tx.blocks().find(space, key);
  }

  Optional<Block> at(Position position) {
    return tx.blocks().atPosition(space, position);
  }

  /**
   * The token rules of DESIGN 5.2, for an answer carrying {@code token}: the first token over no
   * progress is recorded (and the answer may be applied); the first token over progress is recorded
   * and verified (the cursor steps back); a different token is a swap. Returns the recovery that
   * ran, or empty when the answer may be applied.
   */
  Optional<SyncStep> checkToken(SyncState state, ServerToken token) {
    if (state.serverToken().isEmpty()) {
      if (state.cursor().isAssigned()) {
        verify(state, token);
        return Optional.of(SyncStep.of(SyncStep.Kind.VERIFYING, "first token " + token + " over progress up to "
            + state.cursor() + ": stepping back one block to verify it"));
      }
      save(state.withServerToken(token));
    } else if (!state.serverToken().get().equals(token)) {
      swap(token);
      return Optional.of(SyncStep.of(SyncStep.Kind.SWAPPED, "server token changed from "
          + state.serverToken().get() + " to " + token + ": replaying from the start"));
    }
    return Optional.empty();
  }

  /**
   * A swap: the authority's store was replaced. Every position is cleared (the blocks will be
   * pushed again and deduplicated by key), the cursor goes to the start, {@code token} is recorded.
   */
  private void swap(ServerToken token) {
    if (tx.blocks().clearPositions(space) > 0) {
      markAllReplicatedFeedsChanged();
    }
    replication.restartStartsAfterSwap();
    // The gap was in the replaced store's history; the new store's floor is met afresh.
    tx.syncStates().putHistoryGap(space, Position.NONE);
    save(new SyncState(Position.NONE, Optional.empty(), Optional.of(token), Position.NONE));
  }

  /**
   * The authority's {@code floor} was above the cursor: history the replica never pulled is gone.
   * Records it as the space's history gap (the highest such floor is kept), and notes it for the
   * listeners when the policies need positions up to it.
   */
  void recordHistoryGap(Position floor) {
    if (!floor.isAfter(tx.syncStates().historyGap(space))) {
      return;
    }
    tx.syncStates().putHistoryGap(space, floor);
    if (replication.needsUpTo(floor)) {
      historyUnavailable = floor;
    }
  }

  /** The history gap, if the replication policies need positions in it; empty otherwise. */
  Optional<Position> historyUnavailable() {
    Position gap = tx.syncStates().historyGap(space);
    return gap.isAssigned() && replication.needsUpTo(gap) ? Optional.of(gap) : Optional.empty();
  }

  /**
   * The first token over progress the replica already holds: record it and step the cursor back to
   * the previous block the replica holds, so the next pull fetches the block at the cursor again.
   */
  private void verify(SyncState state, ServerToken token) {
    Optional<Block> previous = tx.blocks().lastBefore(space, state.cursor());
    save(new SyncState(previous.map(Block::position).orElse(Position.NONE), previous.map(Block::key),
        Optional.of(token), state.replayUntil()));
  }

  /**
   * A rollback: the authority lost blocks it had acknowledged and may re-issue their positions.
   * Positions above {@code maxPosition} are cleared (their blocks will be pushed again), the cursor
   * goes to the start, and the replay runs until {@code maxPosition}; while it runs, the positions
   * the authority hands out win over the replica's. The history gap is forgotten: the replay
   * records the floor of the authority's history as it is now. With {@link SyncState#REPLAY_BOUND_UNKNOWN}
   * nothing is cleared until the first pull tells the authority's highest position.
   */
  void startReplay(SyncState state, Position maxPosition) {
    // The chains recorded with the blocks are the old history's: the replay records the new one's.
    tx.blocks().forgetChains(space);
    // So was the history gap: the replay meets the authority's floor again from the start.
    tx.syncStates().putHistoryGap(space, Position.NONE);
    Position until = maxPosition;
    if (!maxPosition.equals(SyncState.REPLAY_BOUND_UNKNOWN)) {
      clearAbove(maxPosition);
      replication.lowerStartsAbove(maxPosition);
      until = maxPosition.isAssigned() ? maxPosition : Position.NONE;
    }
    save(new SyncState(Position.NONE, Optional.empty(), state.serverToken(), until));
  }

  /** Clears the positions above {@code maxPosition}, the authority's highest. */
  void clearAbove(Position maxPosition) {
    if (tx.blocks().clearPositionsAbove(space, maxPosition) > 0) {
      markAllReplicatedFeedsChanged();
    }
  }

  /**
   * Stores {@code block} at its position as the authority says: a local block holding the position
   * is unpositioned (displaced, so it will be pushed again); a local block with the same key and
   * other content gets a new sequence (both contents are kept).
   *
   * @param local the block the replica holds under the key, if any
   * @param namespace the feed's namespace, for a feed the replica does not hold yet
   * @return whether anything changed
   */
  boolean place(Block block, Optional<Block> local, Optional<Namespace> namespace) {
    Optional<Block> holder = at(block.position());
    if (holder.isPresent() && !holder.get().key().equals(block.key())) {
      tx.blocks().setPosition(space, holder.get().key(), Position.NONE);
      changed.block(holder.get().key());
    }
    if (local.isPresent() && !local.get().sameContentAs(block)) {
      moveAside(local.get());
      local = Optional.empty();
    }
    if (local.isPresent()) {
      if (local.get().position().equals(block.position())) {
        boolean learnt = block.receivedAt().isPresent() && !block.receivedAt().equals(local.get().receivedAt());
        if (learnt) {
          // Positioned by a push whose answer said no receive time, or received anew after the
          // authority lost it: the authority's receive time is the one the pull says.
          tx.blocks().setPosition(space, block.key(), block.position(), block.receivedAt());
          changed.block(block.key());
        }
        return learnt || holder.isPresent() && !holder.get().key().equals(block.key());
      }
      tx.blocks().setPosition(space, block.key(), block.position(), block.receivedAt());
      changed.block(block.key());
      return true;
    }
    tx.feeds().ensure(space, block.feedId(), namespace);
    namespace.ifPresent(ns -> adoptNamespace(block.feedId(), ns));
    tx.blocks().insert(space, block);
    changed.block(block.key());
    return true;
  }

  /**
   * Gives a feed the replica holds without a namespace the one the authority says. Every block the
   * feed holds may now be in scopes it was not in: the feed changed as a whole.
   */
  void adoptNamespace(dev.feedstore.core.FeedId feed, Namespace namespace) {
    if (tx.feeds().adoptNamespace(space, feed, namespace)) {
      changed.feed(feed);
    }
  }

  /** Gives the authority's position, and its receive time if it said one, to a block the replica pushed. */
  void position(BlockKey key, Position position, java.util.OptionalLong receivedAt) {
    Optional<Block> holder = at(position);
    if (holder.isPresent() && !holder.get().key().equals(key)) {
      tx.blocks().setPosition(space, holder.get().key(), Position.NONE);
      changed.block(holder.get().key());
    }
    tx.blocks().setPosition(space, key, position, receivedAt);
    changed.block(key);
  }

  /**
   * Gives a local block a new key so that its key is free for the authority's block, keeping its
   * content and author (DESIGN 5.3). A block only this replica has seen takes the sequence rule (the
   * feed's highest plus one) and its unpublished successors follow it. A published block may have
   * copies on other replicas: it takes a sequence derived from its content ({@link
   * OrphanSequence}), the same on every replica, and if this replica already holds it there (pulled
   * from another that moved it first), the two copies become one.
   */
  BlockKey moveAside(Block local) {
    if (local.isPositioned()) {
      tx.blocks().setPosition(space, local.key(), Position.NONE);
    }
    changed.feed(local.feedId());
    boolean published = tx.blocks().unpublished(space, List.of(local.key())).isEmpty();
    if (!published) {
      Sequence next = Sequence.after(tx.blocks().maxSequence(space, local.feedId()).orElse(null));
      tx.blocks().rekey(space, local.key(), next);
      return new BlockKey(local.feedId(), local.actorId(), next);
    }
    for (int attempt = 0; ; attempt++) {
      Sequence sequence = OrphanSequence.of(local, attempt);
      BlockKey target = new BlockKey(local.feedId(), local.actorId(), sequence);
      Optional<Block> there = find(target);
      if (there.isEmpty()) {
        tx.blocks().rekey(space, local.key(), sequence);
        return target;
      }
      if (there.get().sameContentAs(local.withSequence(sequence))) {
        tx.blocks().mergeInto(space, local.key(), target);
        return target;
      }
    }
  }

  /**
   * Moves a block found corrupt out of the replica's feeds ({@link
   * dev.feedstore.core.store.ReplicaBlockLog#setAside}). A positioned block of a feed replicated
   * from at or below its position is the authority's too: the cursor goes back before it (if it had passed
   * it; {@link SpaceSync#rewind}), so the next pull fetches it again; blocks the replica holds after
   * it are skipped by key. Any other block was the replica's only copy (unpositioned: not confirmed
   * by the authority; or of a feed it no longer pulls): it stays set aside, is never pushed, and is
   * reported.
   */
  SyncStep setAside(CorruptBlockException corrupt) {
    BlockKey key = corrupt.key();
    Position position = corrupt.position();
    if (!tx.blocks().setAside(space, key)) {
      return SyncStep.of(SyncStep.Kind.SET_ASIDE, 0, corrupt.getMessage() + "; it was set aside already");
    }
    changed.feed(key.feedId());
    if (position.isAssigned() && replication.admits(key.feedId(), position, Optional.empty())) {
      SpaceSync.rewind(tx, space, Position.of(position.value() - 1));
      return SyncStep.of(SyncStep.Kind.SET_ASIDE, 1, corrupt.getMessage() + "; the replica set its copy aside and"
          + " fetches the block again from the authority");
    }
    String why = position.isAssigned()
        ? "the replica does not pull its feed at that position"
        : "the authority never confirmed it";
    return SyncStep.of(SyncStep.Kind.SET_ASIDE, 1, corrupt.getMessage() + "; it was the replica's only copy ("
        + why + "), so it is lost to sync: set aside in the replica's file, never read or pushed again");
  }

  private void markAllReplicatedFeedsChanged() {
    tx.feeds().list(space, Optional.empty()).forEach(info -> changed.feed(info.feedId()));
  }
}
