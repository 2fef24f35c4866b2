package dev.feedstore.server.internal.append;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    List<Set<FeedId>> named = new ArrayList<>(blocks.size());
    Set<FeedId> all = new LinkedHashSet<>();
    for (List<Block> appended : blocks) {
      Set<FeedId> feeds = new LinkedHashSet<>();
      for (Block block : appended) {
        feeds.add(block.feedId());
      }
      named.add(feeds);
      all.addAll(feeds);
    }
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

  /** Creates the feeds missing from {@code stored}, once the limit allows every one, and adds them to it. */
  private void create(AuthorityTransaction tx, List<Optional<Namespace>> namespaces, List<Set<FeedId>> named,
      Map<FeedId, Optional<Namespace>> stored) {
    long count = tx.feeds().count(spaceId);
    Map<FeedId, Optional<Namespace>> created = new LinkedHashMap<>();
    for (int i = 0; i < named.size(); i++) {
      int before = created.size();
      for (FeedId feed : named.get(i)) {
        if (!stored.containsKey(feed)) {
          created.putIfAbsent(feed, namespaces.get(i));
        }
      }
      long feeds = count + created.size();
      if (created.size() > before && feeds > feedsPerSpace) {
        crossing = i;
        throw new LimitExceededException(FEEDS_PER_SPACE.name(), feedsPerSpace, feeds,
            "space '" + spaceId.value() + "' with the feeds this append creates");
      }
    }
    for (Map.Entry<FeedId, Optional<Namespace>> feed : created.entrySet()) {
      stored.put(feed.getKey(), tx.feeds().ensure(spaceId, feed.getKey(), feed.getValue()));
    }
  }
}
