package dev.feedstore.server.internal;

import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import java.util.List;

/**
 * The answer to ListFeeds.
 *
 * @param feeds in feed id order
 * @param maxPosition the highest position in the space
 * @param token the space's server token
 */
public record FeedList(List<FeedInfo> feeds, Position maxPosition, ServerToken token) {}
