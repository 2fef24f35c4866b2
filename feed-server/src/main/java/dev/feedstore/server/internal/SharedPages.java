package dev.feedstore.server.internal;

import dev.feedstore.core.Block;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Pages of a whole space read from storage, shared by the streams that fell behind the space's
 * recent blocks at the same point. When the server cannot keep up, a thousand streams of a space
 * fall behind together; without this each would read the same blocks from storage and encode them
 * on its own, so that falling behind would make every delivery dearer just when the server has the
 * least to spare. With it a page is read once and its frames are built once ({@link SharedFrames}),
 * and a stream that is behind gets whole pages, the cheapest deliveries there are.
 *
 * <p>A page is what storage held when it was read: a stream that takes it later sends what it would
 * have sent had it read then, and reads what followed from the tail or storage afterwards. The
 * pages are dropped when the space's positions move in a way the tail cannot follow (a rollback, a
 * gap). Streams that fell behind do not stay together: some connections drain faster than others,
 * so they spread over many consecutive pages. Pages that start at a multiple of their size (the
 * ones streams behind read, {@link LiveFollower}) therefore each have a slot of a ring of their own,
 * by page number, so that {@value #SLOTS} consecutive pages are held at once and the streams at
 * each of them share it; other pages take a slot by hash. What the held pages take (their blocks,
 * counted {@value #COPIES} times for the encoded batch and frame kept with them) is bounded by
 * {@code maxHeldBytes}: a page that would go past it is not kept.
 *
 * <p>Thread-safe: a short lock around the slots, never held while reading storage. Racing streams
 * may each read a page.
 */
final class SharedPages {
  private static final int SLOTS = 256;
  /** A kept page holds its blocks, their batch encoded once and a frame of it ({@link SharedFrames}). */
  private static final int COPIES = 3;

  /**
   * A page read after position {@code after} with the given bounds, and the frames built for it.
   */
  record Shared(long after, int maxBlocks, long maxBytes, Page page, SharedFrames frames, long bytes) {
    boolean answers(long otherAfter, int otherMaxBlocks, long otherMaxBytes) {
      return after == otherAfter && maxBlocks == otherMaxBlocks && maxBytes == otherMaxBytes;
    }
  }

  private final long maxHeldBytes;
  private final Object lock = new Object();
  /** Guarded by lock. */
  private final Shared[] slots = new Shared[SLOTS];
  /** Guarded by lock: the bytes of the blocks of the pages in {@link #slots}. */
  private long held;

  /** Pages that take at most {@code maxHeldBytes} together (their blocks by {@link BlockSizes#of}, thrice). */
  SharedPages(long maxHeldBytes) {
    if (maxHeldBytes < 0) {
      throw new IllegalArgumentException("maxHeldBytes must be >= 0, was " + maxHeldBytes);
    }
    this.maxHeldBytes = maxHeldBytes;
  }

  /**
   * The page of the whole space after {@code after}, at most {@code maxBlocks} and {@code maxBytes}:
   * the one read before when there is one, else what {@code read} reads, kept for other streams
   * while it fits within the bound.
   */
  Shared page(long after, int maxBlocks, long maxBytes, Supplier<Page> read) {
    int slot = slot(after, maxBlocks);
    synchronized (lock) {
      Shared last = slots[slot];
      if (last != null && last.answers(after, maxBlocks, maxBytes)) {
        return last;
      }
    }
    Page page = read.get();
    long bytes = 0;
    for (Block block : page.blocks()) {
      bytes += COPIES * BlockSizes.of(block);
    }
    Shared shared = new Shared(after, maxBlocks, maxBytes, page, new SharedFrames(), bytes);
    synchronized (lock) {
      Shared replaced = slots[slot];
      long without = held - (replaced == null ? 0 : replaced.bytes());
      if (without + bytes <= maxHeldBytes) {
        slots[slot] = shared;
        held = without + bytes;
      }
    }
    return shared;
  }

  private static int slot(long after, int maxBlocks) {
    if (Math.floorMod(after, (long) maxBlocks) == 0) {
      return (int) Math.floorMod(after / maxBlocks, (long) SLOTS);
    }
    return (int) ((after * 0x9E3779B97F4A7C15L) >>> 56);
  }

  /** Drops every page. */
  void clear() {
    synchronized (lock) {
      Arrays.fill(slots, null);
      held = 0;
    }
  }
}
