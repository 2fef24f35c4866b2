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
 */
public record ReadRequest(
    SpaceId spaceId, ScopeRequest scope, Position cursor, int limit, Optional<String> expectedToken) {
  public ReadRequest {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(expectedToken, "expectedToken");
  }
}
