package dev.feedstore.core;

import java.util.Objects;

/**
 * The block that was last in the feed, in the author's local order, when a block was written. It
 * lives in the same feed, so it is named by actor and sequence alone.
 */
public record Predecessor(ActorId actorId, Sequence sequence) {
  /**
   * The block {@code sequence} of {@code actorId}.
   *
   * @throws NullPointerException naming {@code prevActorId} or {@code prevSequence} if one is null
   */
  public Predecessor {
    Objects.requireNonNull(actorId, "prevActorId");
    Objects.requireNonNull(sequence, "prevSequence");
  }

  /** The block of {@code key}, its feed left out. */
  public static Predecessor of(BlockKey key) {
    return new Predecessor(key.actorId(), key.sequence());
  }

  /** The key of the predecessor, given the feed both blocks live in. */
  public BlockKey keyIn(FeedId feedId) {
    return new BlockKey(feedId, actorId, sequence);
  }

  @Override
  public String toString() {
    return actorId + "/" + sequence;
  }
}
