package dev.feedstore.core.sync;

import dev.feedstore.core.Block;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Limits;

/**
 * What the authority accepts in one request, as far as the replica knows: pushes and pulls are
 * sized to fit, so that no request is refused for its size. An {@link Authority} learns the values
 * from the authority itself, or from a refusal that names a lower one; until then they are the
 * authority's defaults (DESIGN section 6).
 *
 * <p>A block is pushed only when its data is at most {@link #maxPushableData()}: its own limit
 * ({@code block-bytes}), and what one request carries besides its fields with the longest ids.
 * Immutable.
 *
 * @param maxMessageBytes the largest request message ({@code max-message-bytes})
 * @param blocksPerAppend the most blocks in one append ({@code blocks-per-append})
 * @param blockBytes the largest data of one block ({@code block-bytes})
 * @param queryLimit the most blocks one query may ask for ({@code query-limit})
 */
public record AuthorityLimits(long maxMessageBytes, int blocksPerAppend, int blockBytes, int queryLimit) {
  /** The authority's default {@code max-message-bytes}: 16 MiB. */
  public static final long DEFAULT_MAX_MESSAGE_BYTES = 16 << 20;
  /** The authority's defaults. */
  public static final AuthorityLimits DEFAULTS = new AuthorityLimits(DEFAULT_MAX_MESSAGE_BYTES,
      Limits.DEFAULT_BLOCKS_PER_APPEND, Limits.DEFAULT_BLOCK_BYTES, Limits.DEFAULT_QUERY_LIMIT);
  /**
   * The bytes of an append request besides its blocks: a request id, a space id and a namespace (at
   * most 128 characters each), with their field tags, rounded up.
   */
  public static final int REQUEST_OVERHEAD_BYTES = 512;
  /**
   * The bytes of one block in an append request besides its data and ids: field tags, lengths,
   * sequence, predecessor sequence and timestamp as varints, rounded up.
   */
  public static final int BLOCK_OVERHEAD_BYTES = 64;
  /** The longest ids one block carries: a feed id (26), an actor and a predecessor's actor (128 each). */
  private static final int LONGEST_IDS = 26 + 2 * 128;
  /** The smallest {@code max-message-bytes} that carries a request with one empty block. */
  public static final long MIN_MESSAGE_BYTES = REQUEST_OVERHEAD_BYTES + BLOCK_OVERHEAD_BYTES + LONGEST_IDS;

  public AuthorityLimits {
    if (maxMessageBytes < MIN_MESSAGE_BYTES) {
      throw new InvalidValueException("max-message-bytes", "must be at least " + MIN_MESSAGE_BYTES
          + " (a request with one empty block)", maxMessageBytes);
    }
    positive(Limits.Key.BLOCKS_PER_APPEND, blocksPerAppend);
    positive(Limits.Key.BLOCK_BYTES, blockBytes);
    positive(Limits.Key.QUERY_LIMIT, queryLimit);
  }

  /** The most bytes of blocks one push carries. */
  public long pushBytes() {
    return maxMessageBytes - REQUEST_OVERHEAD_BYTES;
  }

  /**
   * The largest data a block may have to be pushed: at most {@code block-bytes}, and small enough
   * that the block fits in one request with the longest ids.
   */
  public int maxPushableData() {
    return (int) Math.min(blockBytes, pushBytes() - BLOCK_OVERHEAD_BYTES - LONGEST_IDS);
  }

  /** An upper bound of the bytes {@code block} takes in an append request. */
  public static long sizeInAppend(Block block) {
    return BLOCK_OVERHEAD_BYTES
        + block.data().size()
        + block.feedId().value().length()
        + block.actorId().value().length()
        + block.predecessor().map(p -> p.actorId().value().length()).orElse(0);
  }

  public AuthorityLimits withMaxMessageBytes(long value) {
    return new AuthorityLimits(value, blocksPerAppend, blockBytes, queryLimit);
  }

  public AuthorityLimits withBlocksPerAppend(int value) {
    return new AuthorityLimits(maxMessageBytes, value, blockBytes, queryLimit);
  }

  public AuthorityLimits withBlockBytes(int value) {
    return new AuthorityLimits(maxMessageBytes, blocksPerAppend, value, queryLimit);
  }

  public AuthorityLimits withQueryLimit(int value) {
    return new AuthorityLimits(maxMessageBytes, blocksPerAppend, blockBytes, value);
  }

  private static void positive(String key, long value) {
    if (value <= 0) {
      throw new InvalidValueException(key, "must be > 0", value);
    }
  }
}
