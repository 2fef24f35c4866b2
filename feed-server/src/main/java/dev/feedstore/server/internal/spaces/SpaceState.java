package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;

/**
 * What the authority keeps in memory about one space: its server token (fixed once loaded), whether
 * the store holds the space, and its live tail. Not its positions: those come from the space's
 * counter in the store, claimed by each append's transaction. Appends through this process are
 * committed one group at a time ({@code AppendQueue}), so their blocks are published to the tail in
 * commit order.
 *
 * <p>Thread-safe.
 */
public final class SpaceState {
  private final SpaceId spaceId;
  private final ServerToken token;
  private final SpaceTail tail;
  /** Written under the lock of {@link Spaces}; once true, stays true. */
  private volatile boolean stored;
  /** The highest floor of the space this process has seen (compacted, or read in a page); only grows. */
  private final java.util.concurrent.atomic.AtomicLong floor = new java.util.concurrent.atomic.AtomicLong();
  /** Guarded by the lock of {@link Spaces}: the calls holding a state that is not stored. */
  private int holders;

  public SpaceState(SpaceId spaceId, ServerToken token, SpaceTail tail, boolean stored) {
    this.spaceId = spaceId;
    this.token = token;
    this.tail = tail;
    this.stored = stored;
  }

  /** True once the store holds the space (its token is stored). */
  public boolean stored() {
    return stored;
  }

  void markStored() {
    stored = true;
  }

  public int holders() {
    return holders;
  }

  void holders(int value) {
    holders = value;
  }

  public SpaceId spaceId() {
    return spaceId;
  }

  public ServerToken token() {
    return token;
  }

  public SpaceTail tail() {
    return tail;
  }

  /** The space's floor as this process last learned it (the store's may be higher: another process compacted). */
  public long floor() {
    return floor.get();
  }

  public void raiseFloor(long seen) {
    floor.accumulateAndGet(seen, Math::max);
  }
}
