package dev.feedstore.client;

import dev.feedstore.core.Position;
import java.util.List;
import java.util.OptionalLong;

/**
 * The authority's answer to one committed append of an {@link Appender}: the position it gave each
 * block and when it received each, in the order of the blocks. Immutable.
 *
 * @param positions one per block, in the order the blocks were given
 * @param receivedAt one per block: the authority's receive time of it in milliseconds since the
 *     epoch, empty where the authority did not say (one older than receive times says nothing)
 */
public record AppendReceipt(List<Position> positions, List<OptionalLong> receivedAt) {
  /**
   * Copies both lists.
   *
   * @throws IllegalArgumentException if the receive times are not one per position
   */
  public AppendReceipt {
    positions = List.copyOf(positions);
    receivedAt = List.copyOf(receivedAt);
    if (receivedAt.size() != positions.size()) {
      throw new IllegalArgumentException("an append receipt has one receive time per position, had "
          + receivedAt.size() + " for " + positions.size());
    }
  }
}
