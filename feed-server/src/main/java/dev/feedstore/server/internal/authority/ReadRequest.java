package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

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
 * @param startTime read the blocks received at or after this time (Unix milliseconds of the
 *     authority's clock), after the position it resolves to (then the cursor is 0, not from_ack)
 */
public record ReadRequest(SpaceId spaceId, ScopeRequest scope, Position cursor, int limit,
    Optional<String> expectedToken, boolean fromAck, OptionalLong startTime) {
  public ReadRequest {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(expectedToken, "expectedToken");
    Objects.requireNonNull(startTime, "startTime");
    if (fromAck && (scope.subscriptionId().isEmpty() || cursor.isAssigned())) {
      throw new IllegalArgumentException("fromAck needs a subscription and cursor 0");
    }
    if (startTime.isPresent() && (fromAck || cursor.isAssigned() || startTime.getAsLong() < 0)) {
      throw new IllegalArgumentException("startTime needs cursor 0, no fromAck, and a time >= 0");
    }
  }

  /** A read from {@code cursor}, or from a durable subscription's acknowledged position. */
  public ReadRequest(SpaceId spaceId, ScopeRequest scope, Position cursor, int limit, Optional<String> expectedToken,
      boolean fromAck) {
    this(spaceId, scope, cursor, limit, expectedToken, fromAck, OptionalLong.empty());
  }

  /** A read from {@code cursor}. */
  public ReadRequest(SpaceId spaceId, ScopeRequest scope, Position cursor, int limit, Optional<String> expectedToken) {
    this(spaceId, scope, cursor, limit, expectedToken, false);
  }
}
