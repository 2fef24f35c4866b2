package dev.feedstore.core;

import java.util.List;

/**
 * The limits of the data model that a store or a server enforces. Every limit has a default, a
 * configuration key (the names in {@link Key}) and an error that names it ({@link
 * LimitExceededException}). Immutable.
 *
 * @param maxBlockBytes the largest {@code data} of one block ({@code block-bytes}, default 1 MiB)
 * @param maxBlocksPerAppend the most blocks in one append ({@code blocks-per-append}, default 1000)
 * @param maxQueryLimit the most blocks one query or watch batch returns ({@code query-limit},
 *     default 1000)
 */
public record Limits(int maxBlockBytes, int maxBlocksPerAppend, int maxQueryLimit) {
  /** The default of {@code block-bytes}: 1 MiB. */
  public static final int DEFAULT_BLOCK_BYTES = 1 << 20;
  /** The default of {@code blocks-per-append}. */
  public static final int DEFAULT_BLOCKS_PER_APPEND = 1000;
  /** The default of {@code query-limit}. */
  public static final int DEFAULT_QUERY_LIMIT = 1000;

  /** The defaults of DESIGN section 6. */
  public static final Limits DEFAULTS =
      new Limits(DEFAULT_BLOCK_BYTES, DEFAULT_BLOCKS_PER_APPEND, DEFAULT_QUERY_LIMIT);

  /** The configuration keys, as they appear in settings and in error messages. */
  public static final class Key {
    private Key() {}

    /** The key of {@link Limits#maxBlockBytes()}. */
    public static final String BLOCK_BYTES = "block-bytes";
    /** The key of {@link Limits#maxBlocksPerAppend()}. */
    public static final String BLOCKS_PER_APPEND = "blocks-per-append";
    /** The key of {@link Limits#maxQueryLimit()}. */
    public static final String QUERY_LIMIT = "query-limit";
  }

  /**
   * The given limits.
   *
   * @throws InvalidValueException naming the limit's key if a limit is not positive
   */
  public Limits {
    requirePositive(Key.BLOCK_BYTES, maxBlockBytes);
    requirePositive(Key.BLOCKS_PER_APPEND, maxBlocksPerAppend);
    requirePositive(Key.QUERY_LIMIT, maxQueryLimit);
  }

  /** These limits with {@code block-bytes} at {@code value}; the same checks as the constructor. */
  public Limits withMaxBlockBytes(int value) {
    return new Limits(value, maxBlocksPerAppend, maxQueryLimit);
  }

  /** These limits with {@code blocks-per-append} at {@code value}; the same checks as the constructor. */
  public Limits withMaxBlocksPerAppend(int value) {
    return new Limits(maxBlockBytes, value, maxQueryLimit);
  }

  /** These limits with {@code query-limit} at {@code value}; the same checks as the constructor. */
  public Limits withMaxQueryLimit(int value) {
    return new Limits(maxBlockBytes, maxBlocksPerAppend, value);
  }

  /**
   * Checks the size of one block's data.
   *
   * @throws LimitExceededException naming {@code block-bytes} if the data is larger than {@link #maxBlockBytes()}
   */
  public void checkBlock(Block block) {
    if (block.data().size() > maxBlockBytes) {
      throw new LimitExceededException(
          Key.BLOCK_BYTES, maxBlockBytes, block.data().size(), "data of block " + block.key());
    }
  }

  /**
   * Checks the number of blocks in one append and the size of each.
   *
   * @throws LimitExceededException naming {@code blocks-per-append} or {@code block-bytes}, whichever is passed
   *     first
   */
  public void checkAppend(List<Block> blocks) {
    if (blocks.size() > maxBlocksPerAppend) {
      throw new LimitExceededException(
          Key.BLOCKS_PER_APPEND, maxBlocksPerAppend, blocks.size(), "blocks in one append");
    }
    for (Block block : blocks) {
      checkBlock(block);
    }
  }

  private static void requirePositive(String key, int value) {
    if (value <= 0) {
      throw new InvalidValueException(key, "must be > 0", value);
    }
  }
}
