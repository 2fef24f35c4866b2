package dev.feedstore.server.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.proto.WireMapping;
import java.util.Objects;
import java.util.Optional;

/**
 * A committed block as live watchers need it: converted to its wire form once, so that every
 * watcher of the space sends the same immutable message, with the namespace of its feed for scope
 * checks and {@code feed_namespaces}. Immutable.
 *
 * @param position the block's position in its space
 * @param feedId the block's feed
 * @param namespace the feed's namespace, if it has one
 * @param wire the block on the wire, position included
 * @param bytes its size for byte budgets ({@link BlockSizes#of})
 */
record TailEntry(long position, FeedId feedId, Optional<Namespace> namespace,
    dev.feedstore.proto.v1.Block wire, long bytes) {

  TailEntry {
    Objects.requireNonNull(feedId, "feedId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(wire, "wire");
  }

  static TailEntry of(Block positioned, Optional<Namespace> namespace) {
    return new TailEntry(positioned.position().value(), positioned.feedId(), namespace,
        WireMapping.toWire(positioned), BlockSizes.of(positioned));
  }
}
