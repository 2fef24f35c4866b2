package dev.feedstore.client;

import dev.feedstore.core.BlockKey;
import java.util.Objects;

/**
 * A local block that sync leaves out because the authority would refuse it for its size: it stays
 * unpositioned, and every other block of its feed and space keeps syncing. It is pushed once the
 * authority accepts it (a server restarted with a larger {@code block-bytes}). Immutable.
 *
 * @param key the block
 * @param dataBytes the size of its data
 * @param reason which limit it is over, with the value the authority stated
 */
public record RefusedBlock(BlockKey key, int dataBytes, String reason) {
  public RefusedBlock {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(reason, "reason");
  }
}
