package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.Optional;

/** The fixed part of a feed's row: never changes once written, so it may be cached. */
record FeedRow(long privateId, long spacePrivateId, FeedId feedId, Optional<Namespace> namespace) {}
