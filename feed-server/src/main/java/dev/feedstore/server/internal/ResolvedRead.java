package dev.feedstore.server.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A Query or Watch ready to read: the space's state, the scope (a subscription's looked up), and
 * the cursor to read after (0 when the caller's expected token names another store).
 *
 * @param subscriptionId the subscription the scope came from, which a Watch keeps renewing
 * @param startCursor the cursor a start time resolved to (then {@code cursor} is it), which the
 *     answer reports; empty when the read did not start at a time
 */
record ResolvedRead(SpaceState space, Scope scope, Position cursor, Optional<String> subscriptionId,
    OptionalLong startCursor) {}
