package dev.feedstore.server.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import java.util.Optional;

/**
 * A Query or Watch ready to read: the space's state, the scope (a subscription's looked up), and
 * the cursor to read after (0 when the caller's expected token names another store).
 *
 * @param subscriptionId the subscription the scope came from, which a Watch keeps renewing
 */
record ResolvedRead(SpaceState space, Scope scope, Position cursor, Optional<String> subscriptionId) {}
