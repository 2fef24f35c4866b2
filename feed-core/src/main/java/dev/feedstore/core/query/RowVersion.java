package dev.feedstore.core.query;

import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The version a row shows: its block, the block's position ({@link Position#NONE} while pending:
 * written here, not yet positioned) and the authority's receive time (empty while pending, and for
 * a positioned block whose receive time the store does not know). Thread-safe (immutable).
 */
public record RowVersion(BlockKey block, Position position, OptionalLong receivedAt) {
  /**
   * The version of {@code block} at {@code position}, received at {@code receivedAt}.
   *
   * @throws NullPointerException if a part is null
   */
  public RowVersion {
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(position, "position");
    Objects.requireNonNull(receivedAt, "receivedAt");
  }

  /** True while the authority has not positioned the block. */
  public boolean pending() {
    return !position.isAssigned();
  }

  @Override
  public String toString() {
    return block + (pending() ? " pending" : " @" + position)
        + (receivedAt.isPresent() ? " received " + receivedAt.getAsLong() : "");
  }
}
