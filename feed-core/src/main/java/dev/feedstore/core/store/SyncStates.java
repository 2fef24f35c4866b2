package dev.feedstore.core.store;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;

/** A replica's sync state per space, as a transaction sees it. Valid while its work runs; not thread-safe. */
public interface SyncStates {

  /** The state of the space, {@link SyncState#INITIAL} if none was stored. */
  SyncState get(SpaceId spaceId);

  /** Stores {@code state} as the space's, replacing the one before; part of the transaction. */
  void put(SpaceId spaceId, SyncState state);

  /**
   * The highest floor of the authority that this replica's cursor was below when it met it: the
   * authority had removed history the replica never pulled, so positions up to it may hold blocks
   * the replica does not have. {@link Position#NONE} when that never happened (or since a swap).
   * Kept in the file, so that a restarted replica still knows.
   */
  Position historyGap(SpaceId spaceId);

  /** Records {@link #historyGap}; {@link Position#NONE} forgets it. */
  void putHistoryGap(SpaceId spaceId, Position floor);
}
