package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.Position;
import dev.feedstore.core.store.SyncState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies the positions of one pushed batch inside one write transaction: token check, rollback
 * signal 3 (and displacements, which outside a replay are evidence too), then the positions. Not
 * thread-safe; one per apply.
 */
final class PushApplier {
  private final LocalSpace local;
  private final PushBatch batch;
  private final AtomicLong epoch;

  PushApplier(LocalSpace local, PushBatch batch, AtomicLong epoch) {
    this.local = local;
    this.batch = batch;
    this.epoch = epoch;
  }

  SpaceSync.Applied apply(AppendReply reply) {
    if (batch.epoch() != epoch.get()) {
      return done(SyncStep.of(SyncStep.Kind.STALE, "a recovery or a policy change ran while the push was out"));
    }
    SyncState state = local.state();
    Optional<SyncStep> recovery = local.checkToken(state, reply.serverToken());
    if (recovery.isPresent()) {
      epoch.incrementAndGet();
      return done(recovery.get());
    }
    state = local.state();
    List<Block> blocks = batch.blocks();
    List<Position> positions = reply.positions();
    String evidence = rollbackEvidence(state, blocks, positions);
    if (evidence != null) {
      local.startReplay(state, SyncState.REPLAY_BOUND_UNKNOWN);
      return restart(SyncStep.Kind.ROLLED_BACK, evidence + "; replaying from the start");
    }
    int positioned = 0;
    for (int i = 0; i < blocks.size(); i++) {
      Optional<Block> held = local.find(blocks.get(i).key());
      java.util.OptionalLong receivedAt = reply.receivedAt().get(i);
      if (held.isPresent() && held.get().sameContentAs(blocks.get(i)) && !held.get().position().equals(positions.get(i))) {
        local.position(blocks.get(i).key(), positions.get(i), receivedAt);
        positioned++;
      } else if (held.isPresent() && held.get().sameContentAs(blocks.get(i)) && receivedAt.isPresent()
          && !receivedAt.equals(held.get().receivedAt())) {
        // The same position again, received anew (the authority lost it and was given it again).
        local.position(blocks.get(i).key(), positions.get(i), receivedAt);
      }
    }
    return new SpaceSync.Applied(SyncStep.of(SyncStep.Kind.PUSHED, positioned,
        "pushed " + blocks.size() + " blocks, " + positioned + " newly positioned"), local, Position.NONE);
  }

  private String rollbackEvidence(SyncState state, List<Block> blocks, List<Position> positions) {
    for (int i = 0; i < blocks.size(); i++) {
      Block pushed = blocks.get(i);
      Position position = positions.get(i);
      if (!position.isAssigned()) {
        throw new AuthorityException("the authority answered no position for " + pushed.key(), false, null);
      }
      Optional<Block> held = local.find(pushed.key());
      if (held.isEmpty() || !held.get().sameContentAs(pushed) || held.get().position().equals(position)) {
        continue;
      }
      if (!position.isAfter(state.cursor())) {
        return "rollback signal 3: pushed block " + pushed.key() + " was given position " + position
            + ", at or below the cursor " + state.cursor();
      }
      if (state.isReplaying()) {
        continue;
      }
      Optional<Block> holder = local.at(position);
      if (holder.isPresent()) {
        return "rollback signal 1: pushed block " + pushed.key() + " was given position " + position
            + " where the replica holds " + holder.get().key();
      }
      if (held.get().isPositioned()) {
        return "rollback signal 2: pushed block " + pushed.key() + " was given position " + position
            + ", the replica holds it at " + held.get().position();
      }
    }
    return null;
  }

  private SpaceSync.Applied restart(SyncStep.Kind kind, String detail) {
    epoch.incrementAndGet();
    return done(SyncStep.of(kind, detail));
  }

  private SpaceSync.Applied done(SyncStep step) {
    return new SpaceSync.Applied(step, local, Position.NONE);
  }
}
