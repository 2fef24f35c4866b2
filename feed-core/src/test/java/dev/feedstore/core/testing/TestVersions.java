package dev.feedstore.core.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.query.ParsedBlock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Versions for live-query tests: blocks with the given content, feed, namespace and state, each
 * with a sequence of its own so that their keys differ.
 */
public final class TestVersions {
  private TestVersions() {}

  /** The time of evaluation of versions made here unless a test says otherwise. */
  public static final long NOW = 1_000_000;

  private static final AtomicLong SEQUENCES = new AtomicLong();

  /** A pending version (written here, not positioned) in a feed without namespace. */
  public static ParsedBlock pending(FeedId feed, String data) {
    return version(feed, null, 0, -1, data);
  }

  /** A positioned version, received at {@code receivedAt}, in a feed without namespace. */
  public static ParsedBlock positioned(FeedId feed, long position, long receivedAt, String data) {
    return version(feed, null, position, receivedAt, data);
  }

  /**
   * A version.
   *
   * @param namespace the feed's namespace, or null for none
   * @param position its position, or 0 for a pending version
   * @param receivedAt the authority's receive time, or -1 when not known (always for pending ones)
   */
  public static ParsedBlock version(FeedId feed, String namespace, long position, long receivedAt, String data) {
    return version(feed, namespace, "actor", position, receivedAt, NOW, data);
  }

  /** A version with every detail chosen. */
  public static ParsedBlock version(FeedId feed, String namespace, String actor, long position, long receivedAt,
      long evaluatedAt, String data) {
    Block block = Block.unpositioned(TestBlocks.key(feed, actor, SEQUENCES.getAndIncrement()), Optional.empty(),
        500, BlockData.utf8(data));
    if (position > 0) {
      block = block.withPosition(Position.of(position));
      if (receivedAt >= 0) {
        block = block.withReceivedAt(receivedAt);
      }
    }
    return ParsedBlock.of(block, Optional.ofNullable(namespace).map(Namespace::of), evaluatedAt);
  }

  /** The same block evaluated again at {@code evaluatedAt} (a new evaluation parses it anew). */
  public static ParsedBlock again(ParsedBlock version, long evaluatedAt) {
    return ParsedBlock.of(version.block(), version.namespace(), evaluatedAt);
  }
}
