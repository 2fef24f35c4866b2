package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.Optional;

/** A feed's row: its private id, its space's, its id and the namespace it was created with. */
record FeedRow(long privateId, long spacePrivateId, FeedId feedId, Optional<Namespace> namespace) {}
