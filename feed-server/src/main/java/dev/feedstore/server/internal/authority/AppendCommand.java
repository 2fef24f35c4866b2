package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated Append: blocks without positions, within the limits, in request order.
 *
 * @param spaceId the space
 * @param namespace the namespace of the feeds this append creates
 * @param blocks at least one block, none positioned
 */
public record AppendCommand(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
  public AppendCommand {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(namespace, "namespace");
    blocks = List.copyOf(blocks);
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("an append needs at least one block");
    }
  }
}
