package dev.feedstore.client;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a replica's sync stands. {@link State#SYNCED} is reported only when every local block of
 * every replicated feed has a position and every live stream has caught up; otherwise it is {@link
 * State#SYNCING} while the authority answers and {@link State#OFFLINE} while it does not.
 *
 * @param state the state
 * @param toPush unpositioned blocks of replicated feeds
 * @param toPull an upper bound of positions between the cursors and the authority's highest
 *     position at its last answer (positions of feeds not replicated here count too)
 * @param lastError the last failure while offline or failing, for display
 */
public record SyncStatus(State state, long toPush, long toPull, Optional<String> lastError) {

  public enum State {
    OFFLINE,
    SYNCING,
    SYNCED
  }

  public SyncStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastError, "lastError");
  }

  public static final SyncStatus OFFLINE_INITIALLY = new SyncStatus(State.OFFLINE, 0, 0, Optional.empty());

  public boolean isSynced() {
    return state == State.SYNCED;
  }

  @Override
  public String toString() {
    return switch (state) {
      case OFFLINE -> "offline" + (toPush > 0 ? " (" + toPush + " to push)" : "");
      case SYNCING -> "syncing (" + toPush + " to push, " + toPull + " to pull)";
      case SYNCED -> "synced";
    };
  }
}
