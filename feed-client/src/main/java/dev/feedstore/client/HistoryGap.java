package dev.feedstore.client;

import dev.feedstore.core.SpaceId;
import java.util.Objects;

/**
 * History of a space that this replica's policies need and will not get: the authority compacted
 * it (retention, or an explicit compaction) before the replica pulled it. Positions up to {@code
 * floor} may hold blocks the replica does not have; it keeps every block it holds, and holds every
 * block of its policies above the floor. Immutable.
 *
 * @param space the space
 * @param floor the authority's floor when the replica met it: the highest position it had removed
 */
public record HistoryGap(SpaceId space, long floor) {
  /** Checks that the space is given. */
  public HistoryGap {
    Objects.requireNonNull(space, "space");
    if (floor < 1) {
      throw new IllegalArgumentException("a history gap has a floor >= 1, was " + floor);
    }
  }

  @Override
  public String toString() {
    return "history of " + space.value() + " up to " + floor + " unavailable (compacted on the authority)";
  }
}
