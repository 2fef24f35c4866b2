package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.internal.append.FeedWriteCheck;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated Append: blocks without positions, within the limits, in request order.
 *
 * @param spaceId the space
 * @param namespace the namespace of the feeds this append creates
 * @param blocks at least one block, none positioned
 * @param writeCheck whether the caller may write to the blocks' feeds, asked in the append's
 *     transaction once their namespaces are known as stored
 */
public record AppendCommand(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks,
    FeedWriteCheck writeCheck) {
  public AppendCommand {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(writeCheck, "writeCheck");
    blocks = List.copyOf(blocks);
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("an append needs at least one block");
    }
  }

  /** An append whose caller may write to every feed of the space. */
  public AppendCommand(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
    this(spaceId, namespace, blocks, FeedWriteCheck.ANY);
  }

  /** This append, made by a caller whose grants {@code check} asks. */
  public AppendCommand withWriteCheck(FeedWriteCheck check) {
    return new AppendCommand(spaceId, namespace, blocks, check);
  }
}
