package dev.feedstore.client.internal;

import dev.feedstore.client.RefusedBlock;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Limits;
import dev.feedstore.core.sync.AuthorityLimits;
import dev.feedstore.core.sync.SpaceSync;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The blocks of a space that push leaves out, as the library reports them: those in feeds the
 * authority takes no new blocks in, and those larger than it accepts. Stateless.
 */
public final class RefusedBlocks {
  private RefusedBlocks() {}

  /**
   * The refused blocks of {@code sync}'s space: first those of the feeds the authority takes no new
   * blocks in, then those over its limits, each part in push order.
   */
  public static List<RefusedBlock> of(SpaceSync sync) {
    Map<FeedId, String> closed = sync.closedFeeds();
    List<RefusedBlock> result = new ArrayList<>();
    sync.refusedInClosedFeeds().forEach((key, size) -> result.add(new RefusedBlock(key, size,
        "the authority takes no new blocks in its feed: " + closed.getOrDefault(key.feedId(), "its stream is over"))));
    String reason = "larger than the authority accepts: " + limitOf(sync.limits());
    sync.refused().forEach((key, size) -> {
      if (!closed.containsKey(key.feedId())) {
        result.add(new RefusedBlock(key, size, reason));
      }
    });
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
