package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;

/** The feeds of a replica's store: the {@link FeedCatalog} and the one move only a replica makes. */
public interface ReplicaFeedCatalog extends FeedCatalog {

  /**
   * Gives a feed that was created without a namespace the namespace {@code namespace}; a feed that
   * has one keeps it. A replica uses this when the authority tells it the namespace of a feed it
   * added by id alone.
   *
   * @return whether the feed changed
   */
  boolean adoptNamespace(SpaceId spaceId, FeedId feedId, Namespace namespace);
}
