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
   * Runs {@code commit}: one of the step's write transactions followed by the calls that tell this
   * listener what it changed, and returns its result. A listener that reads the store in step with
   * what it is told (live queries, which show every commit whole, never half of one) runs such
   * commits one at a time and starts its reads between them, so that a read sees exactly the
   * commits it was told of. The default runs it as it is.
   */
  default <T> T committing(java.util.function.Supplier<T> commit) {
    return commit.get();
  }

  /**
   * Which blocks sync leaves out as refused may have changed: the authority's limits moved the
   * largest data a push carries ({@link SpaceSync#refused()}), the authority closed feeds, or a
   * swap or a rollback forgot the feeds it had closed ({@link SpaceSync#closedFeeds()}). Called
   * inside {@link #committing}.
   */
  default void refusalsChanged(SpaceId spaceId) {}

  /**
   * The authority compacted history of {@code spaceId} that this replica's policies need and that
   * it had not pulled: positions up to {@code floor} may hold blocks the replica will never get. The
   * replica keeps every block it holds and syncs on from the floor. Called on the thread that ran
   * the step, after commit, when the replica first meets the floor (and again when it meets a
   * higher one); {@link SpaceSync#historyUnavailable()} says whether it still applies.
   */
  default void historyUnavailable(SpaceId spaceId, Position floor) {}
}
