package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The feeds of a store, with the counts the authority lists ({@link FeedInfo}) and the feeds of each
 * space. A feed's namespace is set when it is created; only a replica may give one later to a feed
 * created without ({@link ReplicaFeedCatalog}).
 */
public interface FeedCatalog {

  /** The feed, if the store has it. */
  Optional<FeedInfo> find(SpaceId spaceId, FeedId feedId);

  /**
   * The feed, created with {@code namespace} if the store does not have it yet. An existing feed
   * keeps the namespace it was created with, whatever is passed here.
   */
  FeedInfo create(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace);

  /**
   * Creates the feed as {@link #create} does if the store does not have it, and returns the
   * namespace the feed has: what appends and pulls need, without the counts {@link FeedInfo} holds.
   */
  default Optional<Namespace> ensure(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    return create(spaceId, feedId, namespace).namespace();
  }

  /**
   * The namespace of each of {@code feedIds} the store holds (empty for a feed created without
   * one); feeds the store does not hold are absent from the map. Cheaper than {@link #find}: reads
   * no counts.
   */
  default Map<FeedId, Optional<Namespace>> namespaces(SpaceId spaceId, Collection<FeedId> feedIds) {
    Map<FeedId, Optional<Namespace>> result = new java.util.LinkedHashMap<>();
    for (FeedId feedId : feedIds) {
      find(spaceId, feedId).ifPresent(info -> result.put(feedId, info.namespace()));
    }
    return result;
  }

  /** The feeds of a space in feed id order, only those of {@code namespace} when it is given. */
  default List<FeedInfo> list(SpaceId spaceId, Optional<Namespace> namespace) {
    return list(spaceId, namespace, Optional.empty(), Integer.MAX_VALUE);
  }

  /**
   * A page of {@link #list(SpaceId, Optional)}: at most {@code limit} feeds, those whose id comes
   * after {@code after} when it is given.
   */
  List<FeedInfo> list(SpaceId spaceId, Optional<Namespace> namespace, Optional<FeedId> after, int limit);

  /** How many feeds the space has (0 for a space the store does not hold), this transaction's included. */
  long count(SpaceId spaceId);

  /** Every space the store has a feed in, sorted. */
  List<SpaceId> spaces();
}
