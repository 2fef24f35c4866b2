package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Namespace;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Unpositioned blocks to append in one request, all of feeds with the same namespace (the namespace
 * the authority gives to the feeds the request creates).
 *
 * @param blocks the blocks, in push order
 * @param namespace the namespace for feeds the request creates
 * @param epoch the sync epoch when the batch was made
 * @param firstSent the blocks this batch publishes for the first time (if the authority refuses the
 *     whole request, they are unpublished again)
 */
public record PushBatch(List<Block> blocks, Optional<Namespace> namespace, long epoch, Set<BlockKey> firstSent) {
  public PushBatch {
    blocks = List.copyOf(blocks);
    firstSent = Set.copyOf(firstSent);
  }
}
