package dev.feedstore.core;

import java.util.Comparator;

/**
 * The order of a feed, the same on every replica and in every read: positioned blocks by position,
 * then unpositioned blocks by sequence, then actor id. Ties between positioned blocks (which a
 * healthy store never holds) fall back to the unpositioned rule so that the order is total.
 */
public final class FeedOrder {
  private FeedOrder() {}

  /** Compares blocks of one feed in feed order. */
  public static final Comparator<Block> COMPARATOR = FeedOrder::compare;

  private static int compare(Block a, Block b) {
    boolean aPositioned = a.isPositioned();
    boolean bPositioned = b.isPositioned();
    if (aPositioned != bPositioned) {
      return aPositioned ? -1 : 1;
    }
    if (aPositioned) {
      int byPosition = a.position().compareTo(b.position());
      if (byPosition != 0) {
        return byPosition;
      }
    }
    int bySequence = a.sequence().compareTo(b.sequence());
    if (bySequence != 0) {
      return bySequence;
    }
    return a.actorId().compareTo(b.actorId());
  }
}
