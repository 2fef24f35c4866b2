package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import java.util.Map;
import java.util.Set;

/** A replica's replication policies: per feed, per namespace of a space, and per space. */
public interface ReplicationPolicies {

  /** The policy of the feed; {@link Replication#NONE} when none was set. */
  Replication feed(SpaceId spaceId, FeedId feedId);

  /**
   * Sets the policy of a feed the store holds ({@link Replication#NONE} removes it).
   *
   * @throws UnknownFeedException if the feed does not exist
   */
  void setFeed(SpaceId spaceId, FeedId feedId, Replication replication);

  /** Every feed of the space with a policy other than none. */
  Map<FeedId, Replication> feeds(SpaceId spaceId);

  /** The namespaces of the space whose every feed is replicated with full history. */
  Set<Namespace> namespaces(SpaceId spaceId);

  /** Adds or removes a namespace policy. */
  void setNamespace(SpaceId spaceId, Namespace namespace, boolean replicated);

  /**
   * The policy of the whole space, which covers every feed of it, including feeds created later;
   * {@link Replication#NONE} when none was set.
   */
  Replication space(SpaceId spaceId);

  /** Sets the policy of the whole space ({@link Replication#NONE} removes it). */
  void setSpace(SpaceId spaceId, Replication replication);

  /** Every space with a feed, namespace or space policy. */
  Set<SpaceId> spaces();
}
