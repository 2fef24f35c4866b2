package dev.feedstore.core;

/**
 * A read named a cursor below its space's floor: the history after that cursor was removed by
 * retention, so reading on from it would silently skip blocks. The reader starts again at the floor
 * (a cursor of 0 starts there) and knows that what lay between is gone. Carries the space, the
 * cursor and the floor.
 */
public final class CursorCompactedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The machine-readable reason of this failure on the wire ({@code google.rpc.ErrorInfo.reason}). */
  public static final String REASON = "CURSOR_COMPACTED";

  /** The space read. */
  private final SpaceId spaceId;
  /** The cursor the read named. */
  private final Position cursor;
  /** The space's floor when the read was refused. */
  private final Position floor;

  /** A read of {@code spaceId} from {@code cursor}, below the space's {@code floor}. */
  public CursorCompactedException(SpaceId spaceId, Position cursor, Position floor) {
    super("cursor " + cursor + " is below the floor " + floor + " of space " + spaceId
        + ": the history up to " + floor + " was compacted; read again from cursor " + floor
        + " (or 0, which starts at the floor)");
    this.spaceId = spaceId;
    this.cursor = cursor;
    this.floor = floor;
  }

  /** The space read. */
  public SpaceId spaceId() {
    return spaceId;
  }

  /** The cursor the read named, below {@link #floor()}. */
  public Position cursor() {
    return cursor;
  }

  /** The space's floor: the cursor to read on from, the first block kept being the one after it. */
  public Position floor() {
    return floor;
  }
}
