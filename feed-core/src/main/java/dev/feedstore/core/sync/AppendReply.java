package dev.feedstore.core.sync;

import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The authority's answer to an append: a position and a receive time per block, in order, and its
 * token.
 *
 * @param positions one per block
 * @param receivedAt one per block: the authority's receive time of it, empty where the authority
 *     did not say (an older one says nothing)
 */
public record AppendReply(List<Position> positions, List<OptionalLong> receivedAt, ServerToken serverToken) {
  /**
   * @throws IllegalArgumentException if the receive times are not one per position
   */
  public AppendReply {
    positions = List.copyOf(positions);
    receivedAt = List.copyOf(receivedAt);
    Objects.requireNonNull(serverToken, "serverToken");
    if (receivedAt.size() != positions.size()) {
      throw new IllegalArgumentException("an append reply has one receive time per position, had "
          + receivedAt.size() + " for " + positions.size());
    }
  }

  /** A reply that says no receive time. */
  public AppendReply(List<Position> positions, ServerToken serverToken) {
    this(positions, Collections.nCopies(positions.size(), OptionalLong.empty()), serverToken);
  }
}
