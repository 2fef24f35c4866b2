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
  private final Map<FeedId, Optional<Namespace>> feedNamespaces = new HashMap<>();

  ReplicationView(StoreTransaction tx, SpaceId space) {
    this.tx = tx;
    this.space = space;
    this.feeds = new HashMap<>(tx.replication().feeds(space));
    this.namespaces = tx.replication().namespaces(space);
  }

  /** The feeds this replica pushes and pulls: every feed with a policy, and every feed of a namespace policy. */
  Scope.Selection scope() {
    return new Scope.Selection(feeds.keySet(), namespaces);
  }

  boolean hasUnresolvedLatest() {
    return feeds.values().stream().anyMatch(r -> r instanceof Replication.Latest);
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
    if (policy instanceof Replication.Latest) {
      return false;
    }
    Optional<Namespace> namespace = namespaceOf(feed).or(() -> pageNamespace);
    return namespace.isPresent() && namespaces.contains(namespace.get());
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
  }

  /**
   * The lowest position any policy starts at: where a cursor may jump to skip history no policy
   * wants. {@link Position#NONE} when some policy wants everything (a namespace, or full history).
   */
  Position lowestStart() {
    if (!namespaces.isEmpty() || feeds.isEmpty()) {
      return Position.NONE;
    }
    long lowest = Long.MAX_VALUE;
    for (Replication policy : feeds.values()) {
      if (!(policy instanceof Replication.From from)) {
        return Position.NONE;
      }
      lowest = Math.min(lowest, from.from().value());
    }
    return Position.of(lowest);
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
  }

  Optional<Namespace> namespaceOf(FeedId feed) {
    return feedNamespaces.computeIfAbsent(feed,
        f -> tx.feeds().namespaces(space, List.of(f)).getOrDefault(f, Optional.empty()));
  }
}
