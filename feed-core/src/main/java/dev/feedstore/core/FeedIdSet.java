package dev.feedstore.core;

import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SortedSet;

/**
 * An immutable sorted set of feed ids that keeps each id as its 128 bits ({@link FeedId#high},
 * {@link FeedId#low}) in one array: 16 bytes an id, where a {@code TreeSet} of ids costs about 128
 * (an entry, the id, its string and the string's bytes). Scopes hold their feeds in it, because a
 * server keeps the scope of every open Watch stream. Lookups are a binary search; iteration makes
 * the ids again from their bits. Mutators throw {@link UnsupportedOperationException}.
 *
 * <p>Thread-safe (immutable).
 */
final class FeedIdSet extends AbstractSet<FeedId> implements SortedSet<FeedId> {
  static final FeedIdSet EMPTY = new FeedIdSet(new long[0], 0, 0);

  /** The bits of id {@code i} are {@code bits[2i]} (high) and {@code bits[2i + 1]} (low), sorted, distinct. */
  private final long[] bits;
  /** The first id of this view (inclusive). */
  private final int from;
  /** The end of this view (exclusive). */
  private final int to;
  /** The hash code, computed on first use; 0 until then. */
  private int hash;

  private FeedIdSet(long[] bits, int from, int to) {
    this.bits = bits;
    this.from = from;
    this.to = to;
  }

  /** The ids of {@code ids}, sorted; {@code ids} itself when it is a set of this kind that holds no more than it shows. */
  static FeedIdSet copyOf(Collection<FeedId> ids) {
    if (ids instanceof FeedIdSet set && set.from == 0 && set.to * 2 == set.bits.length) {
      return set;
    }
    List<FeedId> sorted = new ArrayList<>(ids);
    sorted.sort(null);
    long[] bits = new long[sorted.size() * 2];
    int count = 0;
    for (int i = 0; i < sorted.size(); i++) {
      if (i > 0 && sorted.get(i).equals(sorted.get(i - 1))) {
        continue;
      }
      bits[2 * count] = sorted.get(i).high();
      bits[2 * count + 1] = sorted.get(i).low();
      count++;
    }
    if (count == 0) {
      return EMPTY;
    }
    return new FeedIdSet(count * 2 == bits.length ? bits : Arrays.copyOf(bits, count * 2), 0, count);
  }

  /** An estimate of the heap this set holds, in bytes: the array and the object. */
  long heapBytes() {
    return 16L + 8L * bits.length + 32;
  }

  @Override
  public int size() {
    return to - from;
  }

  @Override
  public boolean contains(Object o) {
    if (!(o instanceof FeedId id)) {
      return false;
    }
    long high = id.high();
    long low = id.low();
    int at = lowerBound(high, low);
    return at < to && bits[2 * at] == high && bits[2 * at + 1] == low;
  }

  @Override
  public Iterator<FeedId> iterator() {
    return new Iterator<>() {
      private int next = from;

      @Override
      public boolean hasNext() {
        return next < to;
      }

      @Override
      public FeedId next() {
        if (next >= to) {
          throw new NoSuchElementException();
        }
        FeedId id = at(next);
        next++;
        return id;
      }
    };
  }

  /** Natural order: ids are {@link Comparable}. */
  @Override
  public Comparator<? super FeedId> comparator() {
    return null;
  }

  @Override
  public SortedSet<FeedId> subSet(FeedId fromElement, FeedId toElement) {
    if (fromElement.compareTo(toElement) > 0) {
      throw new IllegalArgumentException("fromElement " + fromElement + " is after toElement " + toElement);
    }
    return view(lowerBound(fromElement.high(), fromElement.low()), lowerBound(toElement.high(), toElement.low()));
  }

  @Override
  public SortedSet<FeedId> headSet(FeedId toElement) {
    return view(from, lowerBound(toElement.high(), toElement.low()));
  }

  @Override
  public SortedSet<FeedId> tailSet(FeedId fromElement) {
    return view(lowerBound(fromElement.high(), fromElement.low()), to);
  }

  @Override
  public FeedId first() {
    if (isEmpty()) {
      throw new NoSuchElementException("the set is empty");
    }
    return at(from);
  }

  @Override
  public FeedId last() {
    if (isEmpty()) {
      throw new NoSuchElementException("the set is empty");
    }
    return at(to - 1);
  }

  @Override
  public boolean equals(Object o) {
    if (o instanceof FeedIdSet other) {
      return Arrays.equals(bits, 2 * from, 2 * to, other.bits, 2 * other.from, 2 * other.to);
    }
    return super.equals(o);
  }

  /** The hash code of every {@link java.util.Set} of the same ids (the sum of theirs), kept once computed. */
  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = super.hashCode();
      hash = h;
    }
    return h;
  }

  private FeedId at(int index) {
    return FeedId.ofBits(bits[2 * index], bits[2 * index + 1]);
  }

  private FeedIdSet view(int start, int end) {
    return new FeedIdSet(bits, start, Math.max(start, end));
  }

  /** The index of the first id of this view at or after the given bits ({@code to} if none). */
  private int lowerBound(long high, long low) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compareUnsigned(bits[2 * mid], high);
      if (c == 0) {
        c = Long.compareUnsigned(bits[2 * mid + 1], low);
      }
      if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
