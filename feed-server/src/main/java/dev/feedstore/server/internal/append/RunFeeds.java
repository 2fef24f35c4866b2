package dev.feedstore.server.internal.append;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The feeds named by a run of appends to one space, in one write transaction: reads the namespace
 * of all of them in one lookup, and creates those the space does not have, each with the namespace
 * of the first append that names it, within {@code feeds-per-space} (the space's feeds counted once
 * for the run, and only when some feed is new). An append's feeds count against the limit together
 * with those the appends before it in the run create, as if each had committed on its own first.
 *
 * <p>Not thread-safe; serves one run.
 */
final class RunFeeds {
  private final SpaceId spaceId;
  private final int feedsPerSpace;
  private int crossing = -1;

  /** @param feedsPerSpace the most feeds the space may have after the run */
  RunFeeds(SpaceId spaceId, int feedsPerSpace) {
    this.spaceId = spaceId;
    this.feedsPerSpace = feedsPerSpace;
  }

  /** The index of the append whose feeds crossed the limit, or -1 if none did. */
  int crossing() {
    return crossing;
  }

  /**
   * @param namespaces the namespace each append gives the feeds it creates
   * @param blocks the blocks of each append, in the run's order
   * @return the feeds of each append, with their namespaces as stored (an existing feed keeps its own)
   * @throws LimitExceededException for the first append whose new feeds would take the space past
   *     {@code feeds-per-space} (see {@link #crossing}); nothing is created then
   */
  List<Map<FeedId, Optional<Namespace>>> ensure(AuthorityTransaction tx, List<Optional<Namespace>> namespaces,
      List<List<Block>> blocks) {
    List<Set<FeedId>> named = named(blocks);
    Set<FeedId> all = new LinkedHashSet<>();
    named.forEach(all::addAll);
    Map<FeedId, Optional<Namespace>> stored = new LinkedHashMap<>(tx.feeds().namespaces(spaceId, all));
    if (stored.size() < all.size()) {
      create(tx, namespaces, named, stored);
    }
    List<Map<FeedId, Optional<Namespace>>> result = new ArrayList<>(named.size());
    for (Set<FeedId> feeds : named) {
      Map<FeedId, Optional<Namespace>> own = new LinkedHashMap<>();
      for (FeedId feed : feeds) {
        own.put(feed, stored.get(feed));
      }
      result.add(own);
    }
    return result;
  }

  /** The feeds each append names, in the order its blocks name them. */
  static List<Set<FeedId>> named(List<List<Block>> blocks) {
    List<Set<FeedId>> named = new ArrayList<>(blocks.size());
    for (List<Block> appended : blocks) {
      Set<FeedId> feeds = new LinkedHashSet<>();
      for (Block block : appended) {
        feeds.add(block.feedId());
      }
      named.add(feeds);
    }
    return named;
  }

  /**
   * Passes if the feeds the appends create keep the space within {@code feeds-per-space}, each
   * append's counted with those the appends before it create.
   *
   * @param named the feeds each append names ({@link #named})
   * @param created whether the appends create a feed (the space does not have it)
   * @param count how many feeds the space has without them
   * @throws LimitExceededException for the first append whose new feeds would take the space past
   *     the limit (see {@link #crossing})
   */
  void checkLimit(List<Set<FeedId>> named, Predicate<FeedId> created, long count) {
    Set<FeedId> counted = new HashSet<>();
    for (int i = 0; i < named.size(); i++) {
      int before = counted.size();
      for (FeedId feed : named.get(i)) {
        if (created.test(feed)) {
          counted.add(feed);
        }
      }
      long feeds = count + counted.size();
      if (counted.size() > before && feeds > feedsPerSpace) {
        crossing = i;
        throw new LimitExceededException(FEEDS_PER_SPACE.name(), feedsPerSpace, feeds,
            "space '" + spaceId.value() + "' with the feeds this append creates");
      }
    }
  }

  /** Creates the feeds missing from {@code stored}, once the limit allows every one, and adds them to it. */
  private void create(AuthorityTransaction tx, List<Optional<Namespace>> namespaces, List<Set<FeedId>> named,
      Map<FeedId, Optional<Namespace>> stored) {
    checkLimit(named, feed -> !stored.containsKey(feed), tx.feeds().count(spaceId));
    Map<FeedId, Optional<Namespace>> created = new LinkedHashMap<>();
    for (int i = 0; i < named.size(); i++) {
      for (FeedId feed : named.get(i)) {
        if (!stored.containsKey(feed)) {
          created.putIfAbsent(feed, namespaces.get(i));
        }
      }
    }
    for (Map.Entry<FeedId, Optional<Namespace>> feed : created.entrySet()) {
      stored.put(feed.getKey(), tx.feeds().ensure(spaceId, feed.getKey(), feed.getValue()));
    }
  }
}
