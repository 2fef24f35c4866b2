package dev.feedstore.server.internal.live;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The live blocks of one follower's scope among the recent blocks it read: every follower of a space
 * reads the same tail, and a stream of a few feeds (a Durable Stream follows one) keeps only theirs.
 * A scope of listed feeds checks a feed by decoding its id, which for a thousand streams of one feed
 * cost more than anything else they did per block; so a run of blocks of one feed and namespace (one
 * writer's batch: {@link TailEntry#sameFeedAsPrevious}) is checked once, and the answer for the last
 * feed and namespace checked is kept for the next run. A slice the scope covers whole, as every slice
 * of a whole-space stream, is passed on as it is, not copied.
 *
 * <p>Not thread-safe: confined to its follower's drain.
 */
final class CoveredEntries {
  private final Scope scope;
  private final boolean wholeSpace;
  private FeedId checkedFeed;
  private Optional<Namespace> checkedNamespace = Optional.empty();
  private boolean checkedCovered;

  CoveredEntries(Scope scope) {
    this.scope = scope;
    this.wholeSpace = scope instanceof Scope.WholeSpace;
  }

  /**
   * The entries of {@code entries} the scope covers, in their order: {@code entries} itself when it
   * covers them all (the caller must not change it then), else a new list.
   */
  List<TailEntry> of(List<TailEntry> entries) {
    if (wholeSpace) {
      return entries;
    }
    List<TailEntry> covered = null;
    for (int i = 0; i < entries.size(); i++) {
      TailEntry entry = entries.get(i);
      // The answer kept is the entry before's: a run goes on within the slice.
      boolean in = i > 0 && entry.sameFeedAsPrevious() ? checkedCovered : covers(entry);
      if (covered != null) {
        if (in) {
          covered.add(entry);
        }
      } else if (!in) {
        covered = new ArrayList<>(entries.size());
        covered.addAll(entries.subList(0, i));
      }
    }
    return covered == null ? entries : covered;
  }

  private boolean covers(TailEntry entry) {
    FeedId feed = entry.feedId();
    Optional<Namespace> namespace = entry.namespace();
    if (!feed.equals(checkedFeed) || !namespace.equals(checkedNamespace)) {
      checkedFeed = feed;
      checkedNamespace = namespace;
      checkedCovered = scope.covers(feed, namespace);
    }
    return checkedCovered;
  }
}
