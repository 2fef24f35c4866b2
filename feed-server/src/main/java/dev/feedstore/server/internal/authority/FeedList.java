package dev.feedstore.server.internal.authority;

import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.List;

/**
 * The answer to ListFeeds.
 *
 * @param feeds in feed id order: one page
 * @param hasMore whether more feeds follow the last of the page
 * @param maxPosition the highest position in the space
 * @param token the space's server token
 */
public record FeedList(List<FeedInfo> feeds, boolean hasMore, Position maxPosition, ServerToken token) {}
