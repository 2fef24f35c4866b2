package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.store.Retention;

/**
 * What applying a space's retention did.
 *
 * @param retention the retention in force for the space
 * @param serverDefault true when that is the server's retain settings, not the space's own
 * @param floor the space's floor afterwards
 * @param removed how many blocks it removed
 * @param token the space's server token
 */
public record RetentionResult(Retention retention, boolean serverDefault, Position floor, long removed,
    ServerToken token) {}
