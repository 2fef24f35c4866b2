package dev.feedstore.core.sync;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.Set;

/** Told after a sync step committed changes to some feeds (blocks stored, positioned or moved). */
@FunctionalInterface
public interface SyncListener {
  SyncListener NONE = (space, feeds) -> {};

  /** Called on the thread that ran the step, after commit; must not block for long. */
  void feedsChanged(SpaceId spaceId, Set<FeedId> feeds);
}
