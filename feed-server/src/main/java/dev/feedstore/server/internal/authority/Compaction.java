package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.SpaceFloor;
import java.util.concurrent.locks.LockSupport;

/**
 * Removes a space's history up to a position in small write transactions of {@value #BATCH_BLOCKS}
 * blocks each, resting between two as long as the last one took, so that an append waits for one
 * small transaction at a time, never for the whole compaction, and compaction takes at most half of
 * the store's writer; each transaction asks {@link RetentionHolds} what must be kept. A crash between two
 * transactions leaves a floor part of the way, never a gap: blocks go lowest first and the floor
 * moves with them. Thread-safe; {@link #compact} blocks on the store.
 */
final class Compaction {
  /** Blocks removed per transaction: a few milliseconds of SQLite work, so appends barely wait. */
  static final int BATCH_BLOCKS = 1000;

  /** What a compaction did. */
  record Result(Position floor, long removed) {}

  private final AuthorityStore<?> store;
  private final RetentionHolds holds;

  Compaction(AuthorityStore<?> store, RetentionHolds holds) {
    this.store = store;
    this.holds = holds;
  }

  /** Removes the space's blocks at positions up to {@code upTo} (as far as holds allow), in batches. */
  Result compact(SpaceId spaceId, Position upTo) {
    long removed = 0;
    while (true) {
      long started = System.nanoTime();
      int batch = store.write(tx -> tx.blocks().compact(spaceId, holds.cap(tx, spaceId, upTo), BATCH_BLOCKS));
      removed += batch;
      if (batch < BATCH_BLOCKS) {
        break;
      }
      // The store's writer lock is not fair: taken again at once, it would keep appends waiting for
      // the whole compaction. Resting as long as the batch took leaves the writer free half the time.
      LockSupport.parkNanos(System.nanoTime() - started);
    }
    SpaceFloor floor = store.read(tx -> tx.blocks().floor(spaceId));
    return new Result(floor.position(), removed);
  }
}
