package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import java.util.List;
import java.util.Optional;

/**
 * Unpositioned blocks to append in one request, all of feeds with the same namespace (the namespace
 * the authority gives to the feeds the request creates).
 */
public record PushBatch(List<Block> blocks, Optional<Namespace> namespace, long epoch) {
  public PushBatch {
    blocks = List.copyOf(blocks);
  }
}
