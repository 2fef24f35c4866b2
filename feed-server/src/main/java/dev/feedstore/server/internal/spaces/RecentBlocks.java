package dev.feedstore.server.internal.spaces;

import java.util.ArrayList;
import java.util.List;

/**
 * The most recently committed blocks of a space: a ring of entries with consecutive positions
 * {@code (last - size, last]}, bounded by a count and a byte total; the oldest are dropped first.
 * Not thread-safe: {@link SpaceTail} guards it.
 */
final class RecentBlocks {
  private final TailEntry[] ring;
  private final long maxBytes;
  private int head;
  private int size;
  private long bytes;

  RecentBlocks(int maxBlocks, long maxBytes) {
    this.ring = new TailEntry[maxBlocks];
    this.maxBytes = maxBytes;
  }

  /** Position of the oldest entry held, or 0 when empty. */
  long first() {
    return size == 0 ? 0 : ring[head].position();
  }

  /** Position of the newest entry held, or 0 when empty. */
  long last() {
    return size == 0 ? 0 : newest().position();
  }

  /** The newest entry held, or null when empty. */
  TailEntry newest() {
    return size == 0 ? null : ring[(head + size - 1) % ring.length];
  }

  boolean isEmpty() {
    return size == 0;
  }

  /**
   * Adds the next entry. Its position must follow {@link #last()} (or anything, when empty), so the
   * held positions stay consecutive.
   */
  void add(TailEntry entry) {
    if (size > 0 && entry.position() != last() + 1) {
      throw new IllegalArgumentException("position " + entry.position() + " does not follow " + last());
    }
    if (size == ring.length) {
      dropOldest();
    }
    ring[(head + size) % ring.length] = entry;
    size++;
    bytes += entry.bytes();
    while (bytes > maxBytes && size > 0) {
      dropOldest();
    }
  }

  void clear() {
    while (size > 0) {
      dropOldest();
    }
    head = 0;
  }

  /**
   * The entries after position {@code after}, oldest first: at most {@code maxBlocks}, and no more
   * than {@code maxBytes} of them unless the first alone is larger. Empty when none is held;
   * {@code after} must be at least {@code first() - 1} (callers check {@link #first()}).
   */
  List<TailEntry> after(long after, int maxBlocks, long maxBytes) {
    if (size == 0 || after >= last()) {
      return new ArrayList<>();
    }
    long skip = Math.max(0, after + 1 - first());
    List<TailEntry> out = new ArrayList<>((int) Math.min(maxBlocks, size - skip));
    long taken = 0;
    for (long i = skip; i < size && out.size() < maxBlocks; i++) {
      TailEntry entry = ring[(int) ((head + i) % ring.length)];
      if (!out.isEmpty() && taken + entry.bytes() > maxBytes) {
        break;
      }
      out.add(entry);
      taken += entry.bytes();
    }
    return out;
  }

  private void dropOldest() {
    bytes -= ring[head].bytes();
    ring[head] = null;
    head = (head + 1) % ring.length;
    size--;
  }
}
