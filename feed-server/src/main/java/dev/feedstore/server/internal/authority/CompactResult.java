package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;

/**
 * The answer to a compaction.
 *
 * @param floor the space's floor after it
 * @param removed how many blocks it removed
 * @param token the space's server token
 */
public record CompactResult(Position floor, long removed, ServerToken token) {}
