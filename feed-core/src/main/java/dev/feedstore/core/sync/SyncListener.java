package dev.feedstore.core.sync;

import dev.feedstore.core.SpaceId;

/**
 * Told after a sync step committed changes to some feeds (blocks stored, positioned or moved), with
 * the blocks it changed, so that a listener can read just those.
 */
@FunctionalInterface
public interface SyncListener {
  SyncListener NONE = (space, changes) -> {};

  /** Called on the thread that ran the step, after commit; must not block for long. */
  void feedsChanged(SpaceId spaceId, Changes changes);
}
