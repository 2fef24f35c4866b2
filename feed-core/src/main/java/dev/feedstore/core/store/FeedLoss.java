package dev.feedstore.core.store;

/**
 * What a compaction ({@link BlockLog#compact}) removed from one feed, as the feed's record keeps it:
 * the highest position (a stream's content up to there is gone, {@link StreamCatalog#removedUpTo})
 * and the highest sequence (the feed's next sequences stay above it, {@link
 * StreamCatalog#maxSequence}). Both only ever rise. Immutable.
 *
 * @param upTo the highest position removed (> 0)
 * @param maxSequence the highest sequence removed (>= 0)
 */
public record FeedLoss(long upTo, long maxSequence) {
  /**
   * The loss up to position {@code upTo} and sequence {@code maxSequence}.
   *
   * @throws IllegalArgumentException if {@code upTo} is not positive or {@code maxSequence} is negative
   */
  public FeedLoss {
    if (upTo <= 0 || maxSequence < 0) {
      throw new IllegalArgumentException("a removed block's position must be > 0 and its sequence >= 0, were "
          + upTo + " and " + maxSequence);
    }
  }

  /** The loss of this one's blocks and {@code other}'s together. */
  public FeedLoss and(FeedLoss other) {
    return new FeedLoss(Math.max(upTo, other.upTo), Math.max(maxSequence, other.maxSequence));
  }
}
