package dev.feedstore.core;

import java.util.Comparator;
import java.util.Objects;

/**
 * The identity of a block within a space: {@code (feedId, actorId, sequence)}. Storing the same key
 * twice with the same content is a no-op; with different content it is a conflict. Immutable.
 */
public record BlockKey(FeedId feedId, ActorId actorId, Sequence sequence) implements Comparable<BlockKey> {
  private static final Comparator<BlockKey> ORDER =
      Comparator.comparing(BlockKey::feedId)
          .thenComparing(BlockKey::sequence)
          .thenComparing(BlockKey::actorId);

  /**
   * The key of the block {@code sequence} that {@code actorId} wrote in {@code feedId}.
   *
   * @throws NullPointerException if any argument is null
   */
  public BlockKey {
    Objects.requireNonNull(feedId, "feedId");
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(sequence, "sequence");
  }

  /** The same as the constructor. */
  public static BlockKey of(FeedId feedId, ActorId actorId, Sequence sequence) {
    return new BlockKey(feedId, actorId, sequence);
  }

  /** By feed, then sequence, then actor: the order of unpositioned blocks within each feed. */
  @Override
  public int compareTo(BlockKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return feedId + "/" + actorId + "/" + sequence;
  }
}
