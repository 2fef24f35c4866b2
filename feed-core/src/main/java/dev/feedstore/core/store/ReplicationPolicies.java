package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import java.util.Map;
import java.util.Set;

/** A replica's replication policies: per feed, and per namespace of a space. */
public interface ReplicationPolicies {

  /** The policy of the feed; {@link FeedReplication#NONE} when none was set. */
  FeedReplication feed(SpaceId spaceId, FeedId feedId);

  /**
   * Sets the policy of a feed the store holds ({@link FeedReplication#NONE} removes it).
   *
   * @throws UnknownFeedException if the feed does not exist
   */
  void setFeed(SpaceId spaceId, FeedId feedId, FeedReplication replication);

  /** Every feed of the space with a policy other than none. */
  Map<FeedId, FeedReplication> feeds(SpaceId spaceId);

  /** The namespaces of the space whose every feed is replicated with full history. */
  Set<Namespace> namespaces(SpaceId spaceId);

  /** Adds or removes a namespace policy. */
  void setNamespace(SpaceId spaceId, Namespace namespace, boolean replicated);

  /** Every space with a feed or namespace policy. */
  Set<SpaceId> spaces();
}
