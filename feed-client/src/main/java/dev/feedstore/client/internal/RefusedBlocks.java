package dev.feedstore.client.internal;

import dev.feedstore.client.RefusedBlock;
import dev.feedstore.core.Limits;
import dev.feedstore.core.sync.AuthorityLimits;
import dev.feedstore.core.sync.SpaceSync;
import java.util.ArrayList;
import java.util.List;

/** The blocks of a space that push leaves out for their size, as the library reports them. Stateless. */
public final class RefusedBlocks {
  private RefusedBlocks() {}

  /** The refused blocks of {@code sync}'s space, in push order. */
  public static List<RefusedBlock> of(SpaceSync sync) {
    String reason = "larger than the authority accepts: " + limitOf(sync.limits());
    List<RefusedBlock> result = new ArrayList<>();
    sync.refused().forEach((key, size) -> result.add(new RefusedBlock(key, size, reason)));
    return result;
  }

  /** The limits that bound a block's data, with their values, e.g. {@code block-bytes 65536}. */
  static String limitOf(AuthorityLimits limits) {
    return limits.maxPushableData() < limits.blockBytes()
        ? "max-message-bytes " + limits.maxMessageBytes() + " leaves at most " + limits.maxPushableData()
            + " bytes of data per block"
        : Limits.Key.BLOCK_BYTES + " " + limits.blockBytes();
  }
}
