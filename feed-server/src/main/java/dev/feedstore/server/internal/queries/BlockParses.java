package dev.feedstore.server.internal.queries;

import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.query.ParsedBlock;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * Makes the {@link ParsedBlock}s live queries evaluate and counts how many of them had their JSON
 * read: the evaluation of a committed range makes one per block for every query of the space, so
 * the count grows by the blocks of a commit, not by its blocks times the queries
 * ({@code feedstore_live_query_blocks_parsed_total}). Thread-safe.
 */
final class BlockParses {
  private final LongAdder parsed = new LongAdder();

  /** A block as live queries evaluate it, counted here when its content is read as JSON. */
  ParsedBlock of(Block block, Optional<Namespace> namespace, long evaluatedAt) {
    return ParsedBlock.of(block, namespace, evaluatedAt, parsed::increment);
  }

  /** Blocks whose JSON was read so far: by evaluations, loads of new queries and catch-ups from storage. */
  long count() {
    return parsed.sum();
  }
}
