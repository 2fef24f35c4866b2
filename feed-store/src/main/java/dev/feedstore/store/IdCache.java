package dev.feedstore.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Caches the private ids of spaces and the rows of feeds, which never disappear while a store is
 * open (a feed's namespace changes at most once, from none to one, see {@link Pending#replaceFeed}).
 * At most {@code capacity} feed rows and as many spaces are held; beyond that the oldest are
 * forgotten and read from the file again when used ({@link BoundedMap}), so memory does not grow
 * with the number of feeds the store has seen.
 *
 * <p>Entries made inside a write transaction stay private to it until it commits ({@link
 * Pending#publish}), so a rolled-back transaction cannot leave a row id behind that the file does
 * not hold. A transaction that began before a namespace changed publishes none of the rows it read
 * (they may show the old namespace), so that a row forgotten after the change cannot come back
 * stale.
 *
 * <p>A store that trusts nothing in memory beyond a transaction (several processes write its
 * database) gives each transaction the entries of {@link #transactionOnly()}, which it never
 * publishes.
 *
 * <p>Thread-safe; a {@link Pending} is not.
 */
public final class IdCache {
  private record FeedKey(long spacePrivateId, FeedId feedId) {}

  private final BoundedMap<SpaceId, Long> spaces;
  private final BoundedMap<FeedKey, FeedRow> feeds;
  private final BoundedMap<Long, FeedRow> feedsById;
  /** How many transactions have published a changed feed row. */
  private final AtomicLong changes = new AtomicLong();

  public IdCache(int capacity) {
    this.spaces = new BoundedMap<>(capacity);
    this.feeds = new BoundedMap<>(capacity);
    this.feedsById = new BoundedMap<>(capacity);
  }

  /** How many feed rows are cached: the larger of the two indexes. */
  public int feedRows() {
    return Math.max(feeds.size(), feedsById.size());
  }

  /** Stays empty: nothing is ever published to it. */
  private static final IdCache NOTHING_SHARED = new IdCache(1);

  /** Entries for one transaction that shares none with others: the caller never publishes them. */
  public static Pending transactionOnly() {
    return NOTHING_SHARED.pending();
  }

  /** The entries of a transaction that starts now (before its first read). */
  public Pending pending() {
    return new Pending(changes.get());
  }

  /** The entries one transaction made. */
  public final class Pending {
    private final long changesAtStart;
    private final Map<SpaceId, Long> newSpaces = new HashMap<>();
    private final Map<FeedKey, FeedRow> newFeeds = new HashMap<>();
    private final Map<Long, FeedRow> newFeedsById = new HashMap<>();
    private final Map<FeedKey, FeedRow> changedFeeds = new HashMap<>();

    private Pending(long changesAtStart) {
      this.changesAtStart = changesAtStart;
    }

    public Long space(SpaceId spaceId) {
      Long mine = newSpaces.get(spaceId);
      return mine != null ? mine : spaces.get(spaceId);
    }

    public void putSpace(SpaceId spaceId, long privateId) {
      newSpaces.put(spaceId, privateId);
    }

    public FeedRow feed(long spacePrivateId, FeedId feedId) {
      FeedKey key = new FeedKey(spacePrivateId, feedId);
      FeedRow mine = newFeeds.get(key);
      return mine != null ? mine : feeds.get(key);
    }

    /** The feed row with private id {@code privateId}, or null. */
    public FeedRow feedById(long privateId) {
      FeedRow mine = newFeedsById.get(privateId);
      return mine != null ? mine : feedsById.get(privateId);
    }

    public void putFeed(FeedRow row) {
      newFeeds.put(new FeedKey(row.spacePrivateId(), row.feedId()), row);
      newFeedsById.put(row.privateId(), row);
    }

    /** A feed row that changed in this transaction; it replaces the cached one at commit. */
    public void replaceFeed(FeedRow row) {
      FeedKey key = new FeedKey(row.spacePrivateId(), row.feedId());
      newFeeds.put(key, row);
      newFeedsById.put(row.privateId(), row);
      changedFeeds.put(key, row);
    }

    /**
     * Makes this transaction's entries visible to all; call after it committed. Writes are
     * serialized and publish before the next one starts, so only a read can miss a change.
     */
    public void publish() {
      newSpaces.forEach(spaces::putIfAbsent);
      if (!changedFeeds.isEmpty()) {
        changes.incrementAndGet();
        changedFeeds.forEach(feeds::put);
        changedFeeds.values().forEach(row -> feedsById.put(row.privateId(), row));
      } else if (changes.get() != changesAtStart) {
        return; // a namespace changed since this transaction began: its rows may be older
      }
      newFeeds.forEach(feeds::putIfAbsent);
      newFeeds.values().forEach(row -> feedsById.putIfAbsent(row.privateId(), row));
    }
  }
}
