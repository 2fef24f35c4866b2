package dev.feedstore.core.sync;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StoreTransaction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The replication policies of one space as seen inside one transaction: which feeds are pushed and
 * pulled, and from where. Not thread-safe; lives as long as its transaction.
 */
final class ReplicationView {
  private final StoreTransaction tx;
  private final SpaceId space;
  private final Map<FeedId, Replication> feeds;
  private final Set<Namespace> namespaces;
  /** The whole space's policy, for every feed no feed or namespace policy covers. */
  private Replication spacePolicy;
  private final Map<FeedId, Optional<Namespace>> feedNamespaces = new HashMap<>();

  ReplicationView(StoreTransaction tx, SpaceId space) {
    this.tx = tx;
    this.space = space;
    this.feeds = new HashMap<>(tx.replication().feeds(space));
    this.namespaces = tx.replication().namespaces(space);
    this.spacePolicy = tx.replication().space(space);
  }

  /**
   * The feeds this replica pushes and pulls: every feed with a policy, and every feed of a namespace
   * policy; the whole space when it has a policy of its own.
   */
  Scope scope() {
    return spacePolicy instanceof Replication.None ? new Scope.Selection(feeds.keySet(), namespaces) : Scope.WHOLE_SPACE;
  }

  boolean hasUnresolvedLatest() {
    return spacePolicy instanceof Replication.Latest
        || feeds.values().stream().anyMatch(r -> r instanceof Replication.Latest);
  }

  /** The earliest time of a policy that starts at a time and is not resolved yet, if there is one. */
  java.util.OptionalLong unresolvedSince() {
    return java.util.stream.Stream.concat(feeds.values().stream(), java.util.stream.Stream.of(spacePolicy))
        .filter(r -> r instanceof Replication.Since)
        .mapToLong(r -> ((Replication.Since) r).epochMillis())
        .min();
  }

  /**
   * True when a pulled block of {@code feed} at {@code position} belongs on this replica. {@code
   * pageNamespace} is the feed's namespace as the authority reported it, used when the replica does
   * not hold the feed yet.
   */
  boolean admits(FeedId feed, Position position, Optional<Namespace> pageNamespace) {
    Replication policy = feeds.get(feed);
    if (policy instanceof Replication.From from) {
      return from.includes(position);
    }
    if (policy instanceof Replication.Latest || policy instanceof Replication.Since) {
      return false;
    }
    Optional<Namespace> namespace = namespaceOf(feed).or(() -> pageNamespace);
    if (namespace.isPresent() && namespaces.contains(namespace.get())) {
      return true;
    }
    return spacePolicy instanceof Replication.From from && from.includes(position);
  }

  /** The live-tail policies start after {@code maxPosition}, the authority's highest position now. */
  void resolveLatest(Position maxPosition) {
    for (Map.Entry<FeedId, Replication> entry : feeds.entrySet()) {
      if (entry.getValue() instanceof Replication.Latest) {
        Replication resolved = Replication.from(maxPosition.next());
        tx.replication().setFeed(space, entry.getKey(), resolved);
        entry.setValue(resolved);
      }
    }
    if (spacePolicy instanceof Replication.Latest) {
      spacePolicy = Replication.from(maxPosition.next());
      tx.replication().setSpace(space, spacePolicy);
    }
  }

  /**
   * The policies that start at {@code time} start after {@code startCursor}, the position the
   * authority resolved the time to: the blocks it received at or after the time.
   */
  void resolveSince(long time, Position startCursor) {
    Replication resolved = Replication.from(startCursor.next());
    for (Map.Entry<FeedId, Replication> entry : feeds.entrySet()) {
      if (entry.getValue() instanceof Replication.Since since && since.epochMillis() == time) {
        tx.replication().setFeed(space, entry.getKey(), resolved);
        entry.setValue(resolved);
      }
    }
    if (spacePolicy instanceof Replication.Since since && since.epochMillis() == time) {
      spacePolicy = resolved;
      tx.replication().setSpace(space, spacePolicy);
    }
  }

  /**
   * The lowest position any policy starts at: where a cursor may jump to skip history no policy
   * wants. {@link Position#NONE} when some policy wants everything (a namespace, or full history).
   */
  Position lowestStart() {
    boolean wholeSpace = !(spacePolicy instanceof Replication.None);
    if (!namespaces.isEmpty() || feeds.isEmpty() && !wholeSpace) {
      return Position.NONE;
    }
    long lowest = Long.MAX_VALUE;
    for (Replication policy : wholeSpace ? concat(feeds.values(), spacePolicy) : feeds.values()) {
      if (!(policy instanceof Replication.From from)) {
        return Position.NONE;
      }
      lowest = Math.min(lowest, from.from().value());
    }
    return Position.of(lowest);
  }

  /**
   * True when some policy wants a position at or below {@code position}: a namespace (whose feeds are
   * replicated in full), or a policy that starts there or lower. A live tail not resolved yet wants
   * only what comes next.
   */
  boolean needsUpTo(Position position) {
    if (!namespaces.isEmpty()) {
      return true;
    }
    for (Replication policy : concat(feeds.values(), spacePolicy)) {
      if (policy instanceof Replication.From from && !from.from().isAfter(position)) {
        return true;
      }
    }
    return false;
  }

  private static List<Replication> concat(java.util.Collection<Replication> policies, Replication more) {
    List<Replication> all = new java.util.ArrayList<>(policies);
    all.add(more);
    return all;
  }

  /**
   * After a rollback to {@code maxPosition}: positions above it are new, so a policy that started
   * above it starts right after it (otherwise blocks written after the rollback would be skipped).
   */
  void lowerStartsAbove(Position maxPosition) {
    Position first = maxPosition.next();
    for (Map.Entry<FeedId, Replication> entry : feeds.entrySet()) {
      if (entry.getValue() instanceof Replication.From from && from.from().isAfter(first)) {
        Replication lowered = Replication.from(first);
        tx.replication().setFeed(space, entry.getKey(), lowered);
        entry.setValue(lowered);
      }
    }
    if (spacePolicy instanceof Replication.From from && from.from().isAfter(first)) {
      spacePolicy = Replication.from(first);
      tx.replication().setSpace(space, spacePolicy);
    }
  }

  /**
   * After a swap, positions name another store's history: a policy that started at a position
   * becomes a live tail of the new store.
   */
  void restartStartsAfterSwap() {
    for (Map.Entry<FeedId, Replication> entry : feeds.entrySet()) {
      if (entry.getValue() instanceof Replication.From from && from.from().isAssigned()) {
        tx.replication().setFeed(space, entry.getKey(), Replication.LATEST);
        entry.setValue(Replication.LATEST);
      }
    }
    if (spacePolicy instanceof Replication.From from && from.from().isAssigned()) {
      spacePolicy = Replication.LATEST;
      tx.replication().setSpace(space, spacePolicy);
    }
  }

  Optional<Namespace> namespaceOf(FeedId feed) {
    return feedNamespaces.computeIfAbsent(feed,
        f -> tx.feeds().namespaces(space, List.of(f)).getOrDefault(f, Optional.empty()));
  }
}
