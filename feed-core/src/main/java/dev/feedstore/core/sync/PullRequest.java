package dev.feedstore.core.sync;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;

/**
 * A read of the authority: blocks of {@code scope} after {@code cursor}. If {@code
 * expectedServerToken} differs from the authority's token, the authority reads from the start.
 */
public record PullRequest(
    SpaceId spaceId, Scope scope, Position cursor, int limit, Optional<ServerToken> expectedServerToken) {
  public PullRequest {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(expectedServerToken, "expectedServerToken");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + limit);
    }
  }
}
