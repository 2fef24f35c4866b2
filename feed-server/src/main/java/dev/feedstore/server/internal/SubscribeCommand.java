package dev.feedstore.server.internal;

import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import java.util.OptionalLong;

/**
 * A validated Subscribe.
 *
 * @param spaceId the space
 * @param scope at least one feed or namespace
 * @param ttlMillis the requested TTL, empty for the default
 */
public record SubscribeCommand(SpaceId spaceId, Scope.Selection scope, OptionalLong ttlMillis) {}
