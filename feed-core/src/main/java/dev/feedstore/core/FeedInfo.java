package dev.feedstore.core;

import java.util.Objects;
import java.util.Optional;

/**
 * What a store knows about a feed.
 *
 * @param spaceId the space the feed belongs to
 * @param feedId the feed
 * @param namespace the namespace given when the feed was created, if any
 * @param blockCount how many blocks the store holds of the feed
 * @param lastPosition the highest position among those blocks, or {@link Position#NONE}
 */
public record FeedInfo(
    SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace, long blockCount, Position lastPosition) {
  /**
   * What a store reports of a feed.
   *
   * @throws NullPointerException if {@code spaceId}, {@code feedId}, {@code namespace} or {@code lastPosition} is
   *     null
   */
  public FeedInfo {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(feedId, "feedId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(lastPosition, "lastPosition");
  }
}
