package dev.feedstore.core.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;

/** An operation named a feed the store does not have. */
public final class UnknownFeedException extends StoreException {
  private static final long serialVersionUID = 1L;

  /** The space named. */
  private final SpaceId spaceId;
  /** The feed it does not have. */
  private final FeedId feedId;

  /** Feed {@code feedId} is not in space {@code spaceId}. */
  public UnknownFeedException(SpaceId spaceId, FeedId feedId) {
    super("feed " + feedId + " does not exist in space " + spaceId + " (create it first)");
    this.spaceId = spaceId;
    this.feedId = feedId;
  }

  /** The same, with a message that says more (how to make the feed known, say). */
  public UnknownFeedException(SpaceId spaceId, FeedId feedId, String message) {
    super(message);
    this.spaceId = spaceId;
    this.feedId = feedId;
  }

  /** The space the operation named. */
  public SpaceId spaceId() {
    return spaceId;
  }

  /** The feed the space does not have. */
  public FeedId feedId() {
    return feedId;
  }
}
