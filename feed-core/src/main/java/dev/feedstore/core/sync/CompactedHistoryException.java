package dev.feedstore.core.sync;

import dev.feedstore.core.Position;

/**
 * The authority refused a pull because the history after its cursor was compacted: every position
 * up to {@link #floor()} is gone from the authority. Not retryable as it was; {@link
 * SpaceSync#applyCompacted} moves the replica's cursor to the floor and records what it could not
 * pull, and the pull after that succeeds.
 */
public class CompactedHistoryException extends AuthorityException {
  private static final long serialVersionUID = 1L;

  private final Position floor;

  public CompactedHistoryException(String message, Position floor, Throwable cause) {
    super(message, false, cause);
    if (!floor.isAssigned()) {
      throw new IllegalArgumentException("a compacted history has a floor above 0, was " + floor);
    }
    this.floor = floor;
  }

  /** The authority's floor: the highest position it removed. */
  public Position floor() {
    return floor;
  }
}
