package dev.feedstore.server.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
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
 * gap), and with the space's last watcher. A fixed number of slots ({@code shared-pages}), a ring by
 * page number: a saturated server's streams fall behind at hundreds of points a page
 * apart, and with too few slots each stream would evict the page the next one needed and read its
 * own. Thread-safe and lock-free: racing streams may each read a page.
 */
final class SharedPages {
  /**
   * A page read after position {@code after} with the given bounds, and the frames built for it.
   */
  record Shared(long after, int maxBlocks, long maxBytes, Page page, SharedFrames frames) {
    boolean answers(long otherAfter, int otherMaxBlocks, long otherMaxBytes) {
      return after == otherAfter && maxBlocks == otherMaxBlocks && maxBytes == otherMaxBytes;
    }
  }

  private final AtomicReferenceArray<Shared> slots;

  /** @param slotCount how many pages are kept at most ({@code shared-pages}) */
  SharedPages(int slotCount) {
    this.slots = new AtomicReferenceArray<>(slotCount);
  }

  /**
   * The page of the whole space after {@code after}, at most {@code maxBlocks} and {@code maxBytes}:
   * the one read before when there is one, else what {@code read} reads, kept for other streams.
   */
  Shared page(long after, int maxBlocks, long maxBytes, Supplier<Page> read) {
    // Streams behind read pages that start at multiples of the batch size: a ring by page number,
    // so that as many consecutive pages as there are slots are kept without evicting one another.
    int slot = (int) Math.floorMod(Math.floorDiv(after, (long) maxBlocks), (long) slots.length());
    Shared last = slots.get(slot);
    if (last != null && last.answers(after, maxBlocks, maxBytes)) {
      return last;
    }
    Shared page = new Shared(after, maxBlocks, maxBytes, read.get(), new SharedFrames());
    slots.set(slot, page);
    return page;
  }

  /** Drops every page. */
  void clear() {
    for (int i = 0; i < slots.length(); i++) {
      slots.set(i, null);
    }
  }
}
