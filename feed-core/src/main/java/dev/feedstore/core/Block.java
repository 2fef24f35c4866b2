package dev.feedstore.core;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An immutable entry of a feed. Everything but the {@link #position()} is fixed by the author when
 * the block is written; the position is {@link Position#NONE} until the authority assigns one.
 * Thread-safe.
 *
 * <p>Two blocks are equal when their key, content and position are: the receive time is not
 * compared, since it says when the authority handed out the position, not what the block is, and
 * one replica may know it for a block while another, which pushed the same block, does not.
 *
 * @param key the identity: feed, author, sequence
 * @param predecessor the block that was last in the feed when this one was written; empty for the
 *     first block
 * @param timestamp the author's clock when writing, in Unix milliseconds (>= 0)
 * @param data the content
 * @param position the place in the space's order, or {@link Position#NONE}
 * @param receivedAt when the authority gave the block its position, in Unix milliseconds of the
 *     authority's clock (non-decreasing with the position in a space); empty while the block has no
 *     position, and on a replica for blocks it positioned by pushing them (the authority reports
 *     receive times with the blocks it sends, not with the positions it hands out)
 */
public record Block(BlockKey key, Optional<Predecessor> predecessor, long timestamp, BlockData data,
    Position position, OptionalLong receivedAt) {

  /**
   * A block with every field given.
   *
   * @throws NullPointerException if any argument is null
   * @throws InvalidValueException if {@code timestamp} or {@code receivedAt} is negative, a receive time is
   *     given without a position, or the predecessor names the block itself
   */
  public Block {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(predecessor, "predecessor");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(receivedAt, "receivedAt");
    if (receivedAt.isPresent() && receivedAt.getAsLong() < 0) {
      throw new InvalidValueException("receivedAt", "must be >= 0 (Unix milliseconds)", receivedAt.getAsLong());
    }
    if (receivedAt.isPresent() && !position.isAssigned()) {
      throw new InvalidValueException("receivedAt", "must be absent on a block without a position",
          receivedAt.getAsLong());
    }
    if (timestamp < 0) {
      throw new InvalidValueException("timestamp", "must be >= 0 (Unix milliseconds)", timestamp);
    }
    if (predecessor.isPresent()
        && predecessor.get().actorId().equals(key.actorId())
        && predecessor.get().sequence().equals(key.sequence())) {
      throw new InvalidValueException("prevSequence", "must not name the block itself (" + key + ")",
          predecessor.get().sequence().value());
    }
  }

  /** A block whose receive time is not known (or that has no position yet). */
  public Block(BlockKey key, Optional<Predecessor> predecessor, long timestamp, BlockData data, Position position) {
    this(key, predecessor, timestamp, data, position, OptionalLong.empty());
  }

  /** An unpositioned block, as its author writes it. */
  public static Block unpositioned(
      BlockKey key, Optional<Predecessor> predecessor, long timestamp, BlockData data) {
    return new Block(key, predecessor, timestamp, data, Position.NONE);
  }

  /** The feed the block belongs to, from its key. */
  public FeedId feedId() {
    return key.feedId();
  }

  /** The author, from its key. */
  public ActorId actorId() {
    return key.actorId();
  }

  /** The author's sequence number in the feed, from its key. */
  public Sequence sequence() {
    return key.sequence();
  }

  /** Whether the authority has given the block its place in the space's order. */
  public boolean isPositioned() {
    return position.isAssigned();
  }

  /**
   * The same block at another position; the receive time goes with the old position (it is kept when
   * the position stays the same).
   */
  public Block withPosition(Position newPosition) {
    return new Block(key, predecessor, timestamp, data, newPosition,
        newPosition.equals(position) ? receivedAt : OptionalLong.empty());
  }

  /** The same block, positioned, stamped with the authority's receive time. */
  public Block withReceivedAt(long receivedAtMillis) {
    return new Block(key, predecessor, timestamp, data, position, OptionalLong.of(receivedAtMillis));
  }

  /** The same block without a position and so without a receive time, as its author wrote it. */
  public Block withoutPosition() {
    return withPosition(Position.NONE);
  }

  /** The same block under another sequence (used when a sequence conflict re-keys a block). */
  public Block withSequence(Sequence newSequence) {
    return new Block(new BlockKey(key.feedId(), key.actorId(), newSequence), predecessor, timestamp, data, position,
        receivedAt);
  }

  /** The same block naming {@code newPredecessor} (empty: none) as the block before it in the feed. */
  public Block withPredecessor(Optional<Predecessor> newPredecessor) {
    return new Block(key, newPredecessor, timestamp, data, position, receivedAt);
  }

  /**
   * True when both blocks carry the same author-fixed content: key, predecessor, timestamp and data.
   * Positions are not compared. Two blocks with the same key and different content are a conflict.
   */
  public boolean sameContentAs(Block other) {
    return key.equals(other.key)
        && predecessor.equals(other.predecessor)
        && timestamp == other.timestamp
        && data.equals(other.data);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Block block && sameContentAs(block) && position.equals(block.position);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, predecessor, timestamp, data, position);
  }

  @Override
  public String toString() {
    return "Block[" + key + (position.isAssigned() ? " @" + position : " unpositioned")
        + ", prev=" + predecessor.map(Predecessor::toString).orElse("none")
        + ", ts=" + timestamp + (receivedAt.isPresent() ? ", received " + receivedAt.getAsLong() : "")
        + ", " + data.size() + " bytes]";
  }
}
