package dev.feedstore.core.sync;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A read of the authority: blocks of {@code scope} after {@code cursor}. If {@code
 * expectedServerToken} differs from the authority's token, the authority reads from the start. With
 * a {@code startTime} (then the cursor is {@link Position#NONE}) the authority reads after the
 * position it resolves the time to, and says which ({@link PullPage#startCursor()}).
 */
public record PullRequest(SpaceId spaceId, Scope scope, Position cursor, int limit,
    Optional<ServerToken> expectedServerToken, OptionalLong startTime) {
  public PullRequest {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(expectedServerToken, "expectedServerToken");
    Objects.requireNonNull(startTime, "startTime");
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + limit);
    }
    if (startTime.isPresent() && cursor.isAssigned()) {
      throw new IllegalArgumentException("a read from a start time has cursor 0, was " + cursor);
    }
  }

  /** A read after {@code cursor}. */
  public PullRequest(SpaceId spaceId, Scope scope, Position cursor, int limit,
      Optional<ServerToken> expectedServerToken) {
    this(spaceId, scope, cursor, limit, expectedServerToken, OptionalLong.empty());
  }
}
