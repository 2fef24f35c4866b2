package dev.feedstore.server.internal.authority;

import dev.feedstore.server.internal.append.PendingAppend;
import dev.feedstore.server.internal.errors.EarlierAppendRefusedException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order of the appends one writer keeps in flight on one stream: an append commits after the
 * earlier appends of the stream that name one of its feeds, and once an append of the stream is
 * refused (or fails), every later one naming one of its feeds is refused with {@link
 * EarlierAppendRefusedException}, storing nothing, since its blocks may link to the refused ones.
 * Appends of other feeds go on. A feed is named by its space and id.
 *
 * <p>The appends are {@linkplain #admit admitted} in the stream's order, before they are submitted;
 * the queue keeps that order, and the group commit ({@code AppendGroup}) commits an append after those it follows, or
 * fails it when one of them failed. Remembers the last unsettled append of each feed and the feeds
 * refused, so its memory grows with the feeds the stream names, not with its appends.
 *
 * <p>Thread-safe.
 */
public final class AppendOrder {
  /** The last admitted append of each feed, until it is settled. */
  private final Map<FeedOf, PendingAppend> last = new HashMap<>();
  /** The feeds an append of the stream was refused for. */
  private final Set<FeedOf> refused = new HashSet<>();

  /** A feed of a space. */
  private record FeedOf(String space, String feed) {}

  /**
   * Makes {@code append} follow the unsettled appends admitted before it that name one of its feeds.
   *
   * @throws EarlierAppendRefusedException if an earlier append naming one of its feeds was refused
   *     (then all of its feeds are refused from now on)
   */
  public synchronized void admit(PendingAppend append) {
    List<FeedOf> feeds = feeds(append.space().spaceId().value(), append.feeds());
    refuseAfterRefused(feeds);
    Set<PendingAppend> earlier = new LinkedHashSet<>();
    for (FeedOf feed : feeds) {
      PendingAppend before = last.put(feed, append);
      if (before != null) {
        earlier.add(before);
      }
    }
    append.follow(new ArrayList<>(earlier));
  }

  /**
   * For an append refused before it was made (its request invalid, not allowed, over a limit):
   * refuses the later appends of its feeds.
   */
  public synchronized void refuse(String space, Collection<String> feeds) {
    refused.addAll(feeds(space, feeds));
  }

  /** Records how {@code append} settled: its feeds are refused from now on if it failed. */
  public synchronized void settled(PendingAppend append) {
    List<FeedOf> feeds = feeds(append.space().spaceId().value(), append.feeds());
    if (append.hasFailed()) {
      refused.addAll(feeds);
    }
    for (FeedOf feed : feeds) {
      last.remove(feed, append);
    }
  }

  private void refuseAfterRefused(List<FeedOf> feeds) {
    List<String> earlier = feeds.stream().filter(refused::contains).map(FeedOf::feed).toList();
    if (!earlier.isEmpty()) {
      refused.addAll(feeds);
      throw new EarlierAppendRefusedException(earlier);
    }
  }

  private static List<FeedOf> feeds(String space, Collection<String> feeds) {
    return feeds.stream().distinct().map(feed -> new FeedOf(space, feed)).toList();
  }
}
