package dev.feedstore.core.sync;

import dev.feedstore.core.FeedId;
import java.util.Set;

/**
 * The authority refused an append because some of its blocks are in feeds that take no new blocks:
 * the feeds of Durable Streams that are over (closed, deleted or expired), reason {@code
 * STREAM_CLOSED}. Nothing of the append was written; its other blocks may be appended without
 * those feeds' blocks. Not retryable as it was.
 */
public final class ClosedFeedsException extends AuthorityException {
  private static final long serialVersionUID = 1L;

  private final transient Set<FeedId> feeds;

  /** @param feeds the feeds the authority named, not empty */
  public ClosedFeedsException(Set<FeedId> feeds, String message, Throwable cause) {
    super(message, false, cause);
    if (feeds.isEmpty()) {
      throw new IllegalArgumentException("a refusal over closed feeds names at least one feed");
    }
    this.feeds = Set.copyOf(feeds);
  }

  /** The feeds whose new blocks the authority refuses. */
  public Set<FeedId> feeds() {
    return feeds;
  }
}
