package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.Block;

/** The size a block takes in a response, for byte budgets. Stateless. */
public final class BlockSizes {
  private BlockSizes() {}

  /** Field tags, varints, the position and the receive time, generously. */
  private static final int FIXED_OVERHEAD = 60;

  /** An upper estimate of the block's encoded size in a response. */
  public static long of(Block block) {
    return FIXED_OVERHEAD
        + block.data().size()
        + block.feedId().value().length()
        + block.actorId().value().length()
        + block.predecessor().map(p -> p.actorId().value().length()).orElse(0);
  }
}
