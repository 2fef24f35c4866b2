package dev.feedstore.core.store;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How much of a space's history retention has removed: every block at or below {@code position}
 * is gone, every block above it is kept. A cursor at or above the floor reads all that remains; a
 * cursor below it (other than {@link Position#NONE}) names history that no longer exists.
 *
 * <p>The key and history chain of the block that was at the floor are kept with it, so that a
 * replica whose cursor is exactly the floor can still check that it and the authority agree on
 * that block (the rollback signals compare the block at the cursor and the chain there). Immutable.
 *
 * @param position the highest removed position; {@link Position#NONE} when nothing was removed
 * @param key the key of the block that was at {@code position}, when one was
 * @param chain the history chain at {@code position}, when one was recorded
 */
public record SpaceFloor(Position position, Optional<BlockKey> key, OptionalLong chain) {
  /** Nothing removed. */
  public static final SpaceFloor NONE = new SpaceFloor(Position.NONE, Optional.empty(), OptionalLong.empty());

  /**
   * The floor at {@code position}, with what is known of the block that was there.
   *
   * @throws NullPointerException if a part is null rather than empty
   */
  public SpaceFloor {
    if (position == null || key == null || chain == null) {
      throw new NullPointerException("a floor has a position, and a key and chain that may be empty, never null");
    }
  }

  /**
   * The floor as a store keeps it: the position, and the parts of the key and the chain, each
   * possibly absent (null); a position of 0 is {@link #NONE}. The key is known only when all three of its
   * parts are.
   *
   * @throws dev.feedstore.core.InvalidValueException if a part is present but not a valid value
   */
  public static SpaceFloor of(long position, String feedId, String actorId, Long sequence, Long chain) {
    if (position == 0) {
      return NONE;
    }
    Optional<BlockKey> key = feedId == null || actorId == null || sequence == null
        ? Optional.empty()
        : Optional.of(new BlockKey(new FeedId(feedId), new ActorId(actorId), new Sequence(sequence)));
    return new SpaceFloor(Position.of(position), key, chain == null ? OptionalLong.empty() : OptionalLong.of(chain));
  }

  /** True when history was removed: some positions at or below {@link #position()} are gone. */
  public boolean isRaised() {
    return position.isAssigned();
  }

  /** True when a read after {@code cursor} would need removed history: it is above 0 and below the floor. */
  public boolean isAbove(Position cursor) {
    return cursor.isAssigned() && position.isAfter(cursor);
  }
}
