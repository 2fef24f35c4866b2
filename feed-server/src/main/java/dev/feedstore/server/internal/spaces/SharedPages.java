package dev.feedstore.server.internal.spaces;

import dev.feedstore.core.Block;
import dev.feedstore.core.Scope;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Pages of a space read from storage, shared by the streams of the same scope (the whole space,
 * or the same feeds: the readers of one Durable Stream) that fell behind the space's recent blocks
 * at the same point. When the server cannot keep up, a thousand streams of a space
 * fall behind together; without this each would read the same blocks from storage and encode them
 * on its own, so that falling behind would make every delivery dearer just when the server has the
 * least to spare. With it a page is read once and its frames are built once ({@link Encodings}),
 * and a stream that is behind gets whole pages, the cheapest deliveries there are.
 *
 * <p>A page is what storage held when it was read: a stream that takes it later sends what it would
 * have sent had it read then, and reads what followed from the tail or storage afterwards. The
 * pages are dropped when the space's positions move in a way the tail cannot follow (a rollback, a
 * gap), with the space's last watcher, and when the pages of all spaces together would pass their
 * budget ({@link SharedPageBudget}, {@code shared-pages-bytes}), oldest first. A page whose read
 * overlapped a {@link #clear} is neither kept nor served: it is read again, so that no page of the
 * history a clear was for is sent after it. A fixed number of
 * slots ({@code shared-pages}), a ring by page number: a saturated server's streams fall behind at
 * hundreds of points a page apart, and with too few slots each stream would evict the page the next
 * one needed and read its own. Thread-safe and lock-free but for the budget's lock, taken once per
 * page read: racing streams may each read a page.
 */
public final class SharedPages {
  /** What a page holds besides its blocks' bytes: the page, its lists and maps, the frame's envelope. */
  private static final long PAGE_OVERHEAD = 512;

  /**
   * A page of a scope read after position {@code after} with the given bounds, and the frames built
   * for it, kept in one slot of one space. Compared by identity.
   */
  public static final class Shared {
    private final SharedPages owner;
    private final int slot;
    /** The owner's {@link #generation} when the page was read. */
    private final long generation;
    private final Scope scope;
    private final long after;
    private final int maxBlocks;
    private final long maxBytes;
    private final Page page;
    private final Encodings encodings = new Encodings();
    private final long bytes;
    /** The part of the page last asked for ({@link #after}). */
    private final AtomicReference<Part> part = new AtomicReference<>();

    private Shared(SharedPages owner, int slot, long generation, Scope scope, long after, int maxBlocks, long maxBytes,
        Page page) {
      this.owner = owner;
      this.slot = slot;
      this.generation = generation;
      this.scope = scope;
      this.after = after;
      this.maxBlocks = maxBlocks;
      this.maxBytes = maxBytes;
      this.page = page;
      long blocks = 0;
      for (Block block : page.blocks()) {
        blocks += BlockSizes.of(block);
      }
      // The blocks, and what a transport encodes from them: a Watch frame about as large, Server-Sent
      // Events about half as large again (the data in base64, the fields in JSON).
      this.bytes = PAGE_OVERHEAD + blocks + blocks * 3 / 2;
    }

    public Page page() {
      return page;
    }

    /** What the transports encode from the page once for every stream that sends it. */
    public Encodings encodings() {
      return encodings;
    }

    /**
     * The blocks of this page after {@code position}, a point inside it where streams of the scope
     * fell behind, and what the transports encode from them once for all those streams: the part last
     * asked for is kept with the page, so that streams behind at the same point share it as they
     * share whole pages. It is not charged to the budget: one at a time, and smaller than the page.
     */
    public Part after(long position) {
      Part last = part.get();
      if (last != null && last.after() == position) {
        return last;
      }
      Part made = new Part(position, page.after(position), new Encodings());
      part.set(made);
      return made;
    }

    /** What the page and its frame hold in memory, about: what the {@link SharedPageBudget} charges. */
    long bytes() {
      return bytes;
    }

    boolean answers(Scope otherScope, long otherAfter, int otherMaxBlocks, long otherMaxBytes) {
      return after == otherAfter && maxBlocks == otherMaxBlocks && maxBytes == otherMaxBytes
          && (scope == otherScope || scope.equals(otherScope));
    }

    /** Drops this page from its space if the space still keeps it: true then, false when it was replaced or never kept. */
    boolean drop() {
      return owner.slots.compareAndSet(slot, this, null);
    }
  }

  /**
   * The blocks of a shared page after a point inside it ({@link Shared#after}), and what the
   * transports encode from them for the streams that send them.
   */
  public record Part(long after, Page page, Encodings encodings) {}

  private final AtomicReferenceArray<Shared> slots;
  private final SharedPageBudget budget;
  /** How many times the pages were cleared: a page read before a clear is not kept or served after it. */
  private final AtomicLong generation = new AtomicLong();

  /**
   * @param slotCount how many pages are kept at most ({@code shared-pages})
   * @param budget what the pages of every space may hold together ({@code shared-pages-bytes})
   */
  SharedPages(int slotCount, SharedPageBudget budget) {
    this.slots = new AtomicReferenceArray<>(slotCount);
    this.budget = budget;
  }

  /**
   * The page of {@code scope} after {@code after}, at most {@code maxBlocks} and {@code maxBytes}:
   * the one read before when there is one, else what {@code read} reads, kept for other streams if
   * the budget lets it. A page read while the pages were {@link #clear}ed is read again: what it
   * holds may be the history the clear was for.
   */
  public Shared page(Scope scope, long after, int maxBlocks, long maxBytes, Supplier<Page> read) {
    // Streams behind read pages that start at multiples of the batch size: a ring by page number,
    // so that as many consecutive pages as there are slots are kept without evicting one another
    // (the pages of other scopes in the same ring, shifted by the scope).
    int slot = (int) Math.floorMod(Math.floorDiv(after, (long) maxBlocks) + scope.hashCode(), (long) slots.length());
    while (true) {
      long current = generation.get();
      Shared last = slots.get(slot);
      if (last != null && last.generation == current && last.answers(scope, after, maxBlocks, maxBytes)) {
        return last;
      }
      Shared page = new Shared(this, slot, current, scope, after, maxBlocks, maxBytes, read.get());
      if (generation.get() != current) {
        continue; // cleared while it was read
      }
      if (budget.charge(page)) {
        Shared replaced = slots.getAndSet(slot, page);
        if (replaced != null) {
          budget.credit(replaced);
        }
      }
      if (generation.get() == current) {
        return page;
      }
      if (page.drop()) { // cleared just as it was kept
        budget.credit(page);
      }
    }
  }

  /** Drops every page; a page being read meanwhile is read again. */
  void clear() {
    generation.incrementAndGet();
    for (int i = 0; i < slots.length(); i++) {
      Shared dropped = slots.getAndSet(i, null);
      if (dropped != null) {
        budget.credit(dropped);
      }
    }
  }

  /** What the pages kept now hold, as the budget charged them. */
  long keptBytes() {
    long bytes = 0;
    for (int i = 0; i < slots.length(); i++) {
      Shared kept = slots.get(i);
      bytes += kept == null ? 0 : kept.bytes();
    }
    return bytes;
  }
}
