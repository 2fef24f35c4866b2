package dev.feedstore.core.store;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.Objects;

/**
 * A block read from the store does not match the checksum written with it: its bytes changed on the
 * disk (or in the file) after they were written, so its content cannot be trusted. The read that met
 * it fails as a whole; nothing was changed. Reads that do not touch the block are not affected.
 *
 * <p>The key and position are the ones stored with the block; they identify the stored row (to
 * {@link ReplicaBlockLog#setAside} it), but since the row is corrupt they may themselves be what changed.
 * Immutable.
 */
public final class CorruptBlockException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** The space the block is stored in. */
  private final SpaceId spaceId;
  /** The key stored with the block. */
  private final BlockKey key;
  /** The position stored with the block, or {@link Position#NONE}. */
  private final Position position;

  /**
   * The block stored in {@code spaceId} under {@code key} at {@code position} is corrupt.
   *
   * @param position the block's position, or {@link Position#NONE} for an unpositioned block
   * @param detail what does not match, e.g. "the checksum stored with it is 12, its content gives 34"
   */
  public CorruptBlockException(SpaceId spaceId, BlockKey key, Position position, String detail) {
    super(describe(spaceId, key, position) + " is corrupt: " + detail);
    this.spaceId = Objects.requireNonNull(spaceId, "spaceId");
    this.key = Objects.requireNonNull(key, "key");
    this.position = Objects.requireNonNull(position, "position");
  }

  /**
   * The failure of a stored row whose values do not match its checksum, from the values as stored: a
   * {@code CorruptBlockException} naming its key, or, when the stored key is not even a valid key,
   * a {@link StoreException} naming the values.
   *
   * @param position the stored position, 0 for none
   */
  public static StoreException ofStoredRow(SpaceId spaceId, String feedId, long position, long sequence,
      String actorId, String detail) {
    try {
      return new CorruptBlockException(spaceId, new BlockKey(new dev.feedstore.core.FeedId(feedId),
          new dev.feedstore.core.ActorId(actorId), new dev.feedstore.core.Sequence(sequence)), Position.of(position),
          detail + "; they changed after they were written");
    } catch (RuntimeException invalidKey) {
      return new StoreException("the block stored in space " + spaceId + ", feed " + feedId + " with actor '"
          + actorId + "', sequence " + sequence + " and position " + position + " is corrupt (its key is not valid): "
          + detail);
    }
  }

  /** The space the block is stored in. */
  public SpaceId spaceId() {
    return spaceId;
  }

  /** The key stored with the block (which may itself be what changed). */
  public BlockKey key() {
    return key;
  }

  /** The stored position, {@link Position#NONE} for an unpositioned block. */
  public Position position() {
    return position;
  }

  /** "block (space S, feed F, actor A, sequence N, position P)": every field of the block's identity. */
  static String describe(SpaceId spaceId, BlockKey key, Position position) {
    return "block (space " + spaceId + ", feed " + key.feedId() + ", actor " + key.actorId() + ", sequence "
        + key.sequence() + ", " + (position.isAssigned() ? "position " + position : "unpositioned") + ")";
  }
}
