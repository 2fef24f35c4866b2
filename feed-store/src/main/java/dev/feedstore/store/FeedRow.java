package dev.feedstore.store;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.Optional;

/**
 * The fixed part of a feed's row: its private id, its space's, its id and the namespace it was
 * created with (or adopted, once, on a replica), so it may be kept in memory.
 */
public record FeedRow(long privateId, long spacePrivateId, FeedId feedId, Optional<Namespace> namespace) {}
