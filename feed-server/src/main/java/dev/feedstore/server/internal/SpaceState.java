package dev.feedstore.server.internal;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the authority keeps in memory about one space: its server token (fixed once loaded), whether
 * the store holds the space, its position counter and its live tail. Appends to the space run one at a time under {@link
 * #appendLock()}, which guards the counter, so that the counter is advanced, and the committed
 * blocks are published to the tail, in commit order.
 *
 * <p>Thread-safe.
 */
final class SpaceState {
  private final SpaceId spaceId;
  private final ServerToken token;
  private final SpaceTail tail;
  private final ReentrantLock appendLock = new ReentrantLock();
  /** Guarded by appendLock. The next position to hand out; 0 when it must be read from storage. */
  private long nextPosition;
  /** Written under the lock of {@link Spaces}; once true, stays true. */
  private volatile boolean stored;
  /** Guarded by the lock of {@link Spaces}: the calls holding a state that is not stored. */
  private int holders;

  SpaceState(SpaceId spaceId, ServerToken token, long maxPosition, SpaceTail tail, boolean stored) {
    this.spaceId = spaceId;
    this.token = token;
    this.nextPosition = maxPosition + 1;
    this.tail = tail;
    this.stored = stored;
  }

  /** True once the store holds the space (its token is stored). */
  boolean stored() {
    return stored;
  }

  void markStored() {
    stored = true;
  }

  int holders() {
    return holders;
  }

  void holders(int value) {
    holders = value;
  }

  SpaceId spaceId() {
    return spaceId;
  }

  ServerToken token() {
    return token;
  }

  SpaceTail tail() {
    return tail;
  }

  /** Held while an append to the space runs, from before its transaction to after its publish. */
  ReentrantLock appendLock() {
    return appendLock;
  }

  /** The next position, or 0 when the counter must be read from storage. Needs the append lock. */
  long nextPosition() {
    checkLocked();
    return nextPosition;
  }

  /** Sets the counter after a commit (or to 0 after a failure). Needs the append lock. */
  void nextPosition(long next) {
    checkLocked();
    nextPosition = next;
  }

  private void checkLocked() {
    if (!appendLock.isHeldByCurrentThread()) {
      throw new IllegalStateException("the position counter of space " + spaceId + " needs its append lock");
    }
  }
}
