package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One append of several sent in order ({@link Authority#appendInOrder}).
 *
 * @param namespace the namespace of the feeds it creates
 * @param blocks at least one block, unpositioned
 */
public record AppendCall(Optional<Namespace> namespace, List<Block> blocks) {
  public AppendCall {
    Objects.requireNonNull(namespace, "namespace");
    blocks = List.copyOf(blocks);
  }

  /** The feeds of its blocks, in the order of the blocks. */
  public Set<FeedId> feeds() {
    Set<FeedId> feeds = new LinkedHashSet<>();
    blocks.forEach(block -> feeds.add(block.feedId()));
    return feeds;
  }
}
