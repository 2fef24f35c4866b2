package dev.feedstore.server.internal.authority;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import java.util.Optional;

/**
 * The one place compaction asks what must be kept: the lowest position of a space that something
 * still needs (a consumer that has not acknowledged past it), asked in the compaction's own write
 * transaction so that the answer and the removal agree: the live durable subscriptions ({@link
 * SubscriptionBook#retentionHolds}); {@link #NONE} holds nothing. Implementations are thread-safe and use only the transaction given.
 */
@FunctionalInterface
interface RetentionHolds {
  /** Nothing holds any history. */
  RetentionHolds NONE = (tx, spaceId) -> Optional.empty();

  /** The lowest position of the space that must be kept, if any must. */
  Optional<Position> lowestKept(AuthorityTransaction tx, SpaceId spaceId);

  /** {@code upTo}, lowered so that it removes nothing that must be kept. */
  default Position cap(AuthorityTransaction tx, SpaceId spaceId, Position upTo) {
    return lowestKept(tx, spaceId)
        .map(kept -> Position.of(Math.min(upTo.value(), Math.max(0, kept.value() - 1))))
        .orElse(upTo);
  }
}
