package dev.feedstore.client;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a replica stood when a live query's event was made. Immutable.
 *
 * @param commit the last of the replica's commits the event shows, counted from 1 since the replica
 *     was opened (0 before any): every local append, every sync step that stored, positioned or
 *     moved blocks, every recovery and policy change. An event shows each of them whole, and every
 *     one before it.
 * @param historyUnavailable the history the replica misses ({@link SyncStatus#historyUnavailable()})
 *     when the query's scope covers feeds the replica replicates: the authority compacted positions
 *     up to the gap's floor before the replica pulled them, so documents whose versions were all
 *     there may be missing or show an older version
 */
public record LocalState(long commit, Optional<HistoryGap> historyUnavailable) {
  /** Checks that the commit is not negative and the history gap is given (empty when none). */
  public LocalState {
    if (commit < 0) {
      throw new IllegalArgumentException("commit must be >= 0, was " + commit);
    }
    Objects.requireNonNull(historyUnavailable, "historyUnavailable");
  }
}
