package dev.feedstore.core.sync;

import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.List;
import java.util.Objects;

/** The authority's answer to an append: a position per block, in order, and its token. */
public record AppendReply(List<Position> positions, ServerToken serverToken) {
  public AppendReply {
    positions = List.copyOf(positions);
    Objects.requireNonNull(serverToken, "serverToken");
  }
}
