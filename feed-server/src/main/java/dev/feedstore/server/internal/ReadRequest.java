package dev.feedstore.server.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated Query, or the start of a Watch.
 *
 * @param spaceId the space
 * @param scope what to read
 * @param cursor read blocks with a position above it
 * @param limit the most blocks to return (Query only; Watch batches by its settings)
 * @param expectedToken the server token the caller's cursor came from, if it said
 * @param fromAck read after the acknowledged position of the durable subscription the scope names
 *     (then the cursor is 0)
 */
public record ReadRequest(SpaceId spaceId, ScopeRequest scope, Position cursor, int limit,
    Optional<String> expectedToken, boolean fromAck) {
  public ReadRequest {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(expectedToken, "expectedToken");
    if (fromAck && (scope.subscriptionId().isEmpty() || cursor.isAssigned())) {
      throw new IllegalArgumentException("fromAck needs a subscription and cursor 0");
    }
  }

  /** A read from {@code cursor}. */
  public ReadRequest(SpaceId spaceId, ScopeRequest scope, Position cursor, int limit, Optional<String> expectedToken) {
    this(spaceId, scope, cursor, limit, expectedToken, false);
  }
}
