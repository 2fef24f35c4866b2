package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Caches the private ids of spaces and the rows of feeds, which never disappear while a store is
 * open (a feed's namespace changes at most once, from none to one, see {@link #replaceFeed}).
 * Entries made inside a write transaction stay private to it until it
 * commits ({@link Pending#publish}), so a rolled-back transaction cannot leave a row id behind that
 * the file does not hold. Thread-safe; a {@link Pending} is not.
 */
final class IdCache {
  private record FeedKey(long spacePrivateId, FeedId feedId) {}

  private final Map<SpaceId, Long> spaces = new ConcurrentHashMap<>();
  private final Map<FeedKey, FeedRow> feeds = new ConcurrentHashMap<>();
  private final Map<Long, FeedRow> feedsById = new ConcurrentHashMap<>();

  Pending pending() {
    return new Pending();
  }

  /** The entries one transaction made. */
  final class Pending {
    private final Map<SpaceId, Long> newSpaces = new HashMap<>();
    private final Map<FeedKey, FeedRow> newFeeds = new HashMap<>();
    private final Map<Long, FeedRow> newFeedsById = new HashMap<>();
    private final Map<FeedKey, FeedRow> changedFeeds = new HashMap<>();

    Long space(SpaceId spaceId) {
      Long id = spaces.get(spaceId);
      return id != null ? id : newSpaces.get(spaceId);
    }

    void putSpace(SpaceId spaceId, long privateId) {
      newSpaces.put(spaceId, privateId);
    }

    FeedRow feed(long spacePrivateId, FeedId feedId) {
      FeedKey key = new FeedKey(spacePrivateId, feedId);
      FeedRow mine = newFeeds.get(key);
      return mine != null ? mine : feeds.get(key);
    }

    /** The feed row with private id {@code privateId}, or null. */
    FeedRow feedById(long privateId) {
      FeedRow mine = newFeedsById.get(privateId);
      return mine != null ? mine : feedsById.get(privateId);
    }

    void putFeed(FeedRow row) {
      newFeeds.put(new FeedKey(row.spacePrivateId(), row.feedId()), row);
      newFeedsById.put(row.privateId(), row);
    }

    /** A feed row that changed in this transaction; it replaces the cached one at commit. */
    void replaceFeed(FeedRow row) {
      FeedKey key = new FeedKey(row.spacePrivateId(), row.feedId());
      newFeeds.put(key, row);
      newFeedsById.put(row.privateId(), row);
      changedFeeds.put(key, row);
    }

    /** Makes this transaction's entries visible to all; call after it committed. */
    void publish() {
      spaces.putAll(newSpaces);
      newFeeds.forEach(feeds::putIfAbsent);
      feeds.putAll(changedFeeds);
      newFeeds.values().forEach(row -> feedsById.putIfAbsent(row.privateId(), row));
      changedFeeds.values().forEach(row -> feedsById.put(row.privateId(), row));
    }
  }
}
