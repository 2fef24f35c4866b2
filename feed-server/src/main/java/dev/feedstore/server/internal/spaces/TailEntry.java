package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A committed block as live streams need it: the block, the namespace of its feed for scope checks,
 * and what each transport encodes from it once for every stream that sends it ({@link Encodings}:
 * a Watch's block field, a Server-Sent Event), made when a stream of that transport first needs it,
 * so that the tail itself knows no transport and a block no stream sends is never encoded. Immutable
 * but for its encodings, which are thread-safe.
 *
 * @param block the block, positioned
 * @param namespace the feed's namespace, if it has one
 * @param sameFeedAsPrevious true when the entry before it in the tail is of the same feed and
 *     namespace, so that a stream's scope covers both or neither: a stream of a few feeds checks a run
 *     of one writer's blocks once, not block by block
 * @param bytes its size for byte budgets ({@link BlockSizes#of})
 * @param chain the history chain at the block's position, when known
 * @param encodings what the transports encode from this block once for every stream: made by the
 *     first stream of each transport that sends it
 */
public record TailEntry(Block block, Optional<Namespace> namespace, boolean sameFeedAsPrevious, long bytes,
    OptionalLong chain, Encodings encodings) {

  public TailEntry {
    Objects.requireNonNull(block, "block");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(chain, "chain");
    Objects.requireNonNull(encodings, "encodings");
    if (!block.position().isAssigned()) {
      throw new IllegalArgumentException("a tail entry holds a positioned block");
    }
  }

  /** The block's position in its space. */
  public long position() {
    return block.position().value();
  }

  /** The block's feed. */
  public FeedId feedId() {
    return block.feedId();
  }

  /** The entry of a block that follows no other entry. */
  public static TailEntry of(Block positioned, Optional<Namespace> namespace) {
    return of(null, positioned, namespace, OptionalLong.empty());
  }

  /** The entry of a block that follows {@code previous} in the tail. */
  public static TailEntry following(TailEntry previous, Block positioned, Optional<Namespace> namespace) {
    return of(Objects.requireNonNull(previous, "previous"), positioned, namespace, OptionalLong.empty());
  }

  /** The entry of a block that follows {@code previous} in the tail, or no entry when it is null. */
  static TailEntry of(TailEntry previous, Block positioned, Optional<Namespace> namespace, OptionalLong chain) {
    boolean sameFeed = previous != null && previous.feedId().equals(positioned.feedId())
        && previous.namespace().equals(namespace);
    return new TailEntry(positioned, namespace, sameFeed, BlockSizes.of(positioned), chain, new Encodings());
  }
}
