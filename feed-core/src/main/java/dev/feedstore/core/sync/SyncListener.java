package dev.feedstore.core.sync;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;

/**
 * Told after a sync step committed changes to some feeds (blocks stored, positioned or moved), with
 * the blocks it changed, so that a listener can read just those; and when the replica learns that
 * history its policies need is gone from the authority.
 */
@FunctionalInterface
public interface SyncListener {
  SyncListener NONE = (space, changes) -> {};

  /** Called on the thread that ran the step, after commit; must not block for long. */
  void feedsChanged(SpaceId spaceId, Changes changes);

  /**
   * The authority compacted history of {@code spaceId} that this replica's policies need and that
   * it had not pulled: positions up to {@code floor} may hold blocks the replica will never get. The
   * replica keeps every block it holds and syncs on from the floor. Called on the thread that ran
   * the step, after commit, when the replica first meets the floor (and again when it meets a
   * higher one); {@link SpaceSync#historyUnavailable()} says whether it still applies.
   */
  default void historyUnavailable(SpaceId spaceId, Position floor) {}
}
