package dev.feedstore.client;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Map;

/**
 * What a {@link FeedListener} is told: the current content of the feeds that changed, each in feed
 * order. The first update of a registration holds every feed in its scope.
 *
 * @param spaceId the space
 * @param feeds the changed feeds, each with its whole current content in feed order
 * @param initial true for the first update of a registration
 */
public record FeedUpdate(SpaceId spaceId, Map<FeedId, List<Block>> feeds, boolean initial) {
  public FeedUpdate {
    feeds = Map.copyOf(feeds);
  }
}
