package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.server.internal.spaces.SpaceState;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Query or Watch ready to read: the space's state, the scope (a subscription's looked up), and
 * the cursor to read after (0 when the caller's expected token names another store).
 *
 * @param cursor where the read starts; 0 when it starts at a time, which its first page resolves
 *     ({@link PositionAuthority#startPage})
 * @param subscriptionId the subscription the scope came from, which a Watch keeps renewing
 * @param startTime the time the read starts at (Unix milliseconds of the authority's clock), if it
 *     starts at one
 */
public record ResolvedRead(SpaceState space, Scope scope, Position cursor, Optional<String> subscriptionId,
    OptionalLong startTime) {}
