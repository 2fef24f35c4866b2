package dev.feedstore.store;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A map that holds at most {@code capacity} entries, for rows the store may read again at any
 * time: adding an entry past the bound forgets the oldest added (first in, first out). Lookups take
 * no lock and record nothing, so the many reads of hot rows stay as cheap as in a plain concurrent
 * map; only additions, which follow a read of the database, take a short lock.
 *
 * <p>Thread-safe.
 */
final class BoundedMap<K, V> {
  private final int capacity;
  private final Map<K, V> entries = new ConcurrentHashMap<>();
  /** Guarded by itself: every key of {@link #entries}, oldest addition first. */
  private final ArrayDeque<K> order = new ArrayDeque<>();

  BoundedMap(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  V get(K key) {
    return entries.get(key);
  }

  int size() {
    return entries.size();
  }

  /** Adds the entry unless the key has one. */
  void putIfAbsent(K key, V value) {
    synchronized (order) {
      if (entries.putIfAbsent(key, value) == null) {
        added(key);
      }
    }
  }

  /** Adds the entry, or replaces the key's value (which keeps its place in the order). */
  void put(K key, V value) {
    synchronized (order) {
      if (entries.put(key, value) == null) {
        added(key);
      }
    }
  }

  /** Needs the lock. */
  private void added(K key) {
    order.addLast(key);
    while (order.size() > capacity) {
      entries.remove(order.removeFirst());
    }
  }
}
