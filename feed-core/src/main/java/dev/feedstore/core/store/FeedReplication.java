package dev.feedstore.core.store;

import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import java.util.Objects;

/**
 * The replication of one feed on a replica, with the progress of its back-fill: when a feed joins
 * with a start below the space's cursor, the positions {@code (backfillCursor, backfillUntil]} are
 * fetched for it alone before it simply follows the shared cursor.
 *
 * @param replication the policy
 * @param backfillCursor the last position back-filled
 * @param backfillUntil the last position to back-fill; {@link Position#NONE} when no back-fill is due
 */
public record FeedReplication(Replication replication, Position backfillCursor, Position backfillUntil) {
  public static final FeedReplication NONE =
      new FeedReplication(Replication.NONE, Position.NONE, Position.NONE);

  public FeedReplication {
    Objects.requireNonNull(replication, "replication");
    Objects.requireNonNull(backfillCursor, "backfillCursor");
    Objects.requireNonNull(backfillUntil, "backfillUntil");
  }

  public static FeedReplication of(Replication replication) {
    return new FeedReplication(replication, Position.NONE, Position.NONE);
  }

  public boolean isBackfilling() {
    return backfillUntil.isAssigned() && backfillCursor.compareTo(backfillUntil) < 0;
  }

  public FeedReplication withBackfill(Position cursor, Position until) {
    return new FeedReplication(replication, cursor, until);
  }
}
