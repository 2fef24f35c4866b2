package dev.feedstore.client;

import dev.feedstore.core.BlockKey;
import java.util.Objects;

/**
 * A local block that sync leaves out because the authority would refuse it: for its size (it
 * stays unpositioned, every other block of its feed and space keeps syncing, and it is pushed once
 * the authority accepts it, a server restarted with a larger {@code block-bytes}), or because the
 * authority takes no new blocks in its feed (the feed of a Durable Stream that was closed, deleted
 * or expired: it is kept here, never pushed, and every other feed's blocks keep syncing). Immutable.
 *
 * @param key the block
 * @param dataBytes the size of its data
 * @param reason which limit it is over, with the value the authority stated; or the authority's
 *     words about its feed, with the reason {@code STREAM_CLOSED}
 */
public record RefusedBlock(BlockKey key, int dataBytes, String reason) {
  /** Checks that the key and the reason are given. */
  public RefusedBlock {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(reason, "reason");
  }
}
