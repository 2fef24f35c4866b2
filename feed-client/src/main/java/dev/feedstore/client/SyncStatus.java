package dev.feedstore.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a replica's sync stands, and why it is not synced. {@link State#SYNCED} is reported only
 * when every local block of every replicated feed has a position and every live stream has caught
 * up. Otherwise the state says what stands in the way, the first that applies:
 *
 * <ul>
 *   <li>{@link State#STORAGE_FAULT}: the replica's own file failed (disk full, read-only, I/O, locked
 *       by another program); sync retries, and {@code lastError} says which file and what;
 *   <li>{@link State#OFFLINE}: the authority cannot be reached (or fails: it is shutting down, its
 *       storage failed); sync reconnects with backoff;
 *   <li>{@link State#REFUSED}: the authority answers but refuses something ({@link #refusals()}: the
 *       status code, its description and what is held back, a space or blocks); the rest syncs;
 *   <li>{@link State#SYNCING}: work is left, and under way.
 * </ul>
 *
 * @param state the state
 * @param toPush unpositioned blocks of replicated feeds (refused ones included)
 * @param toPull an upper bound of positions between the cursors and the authority's highest
 *     position at its last answer (positions of feeds not replicated here count too)
 * @param lastError the failure while offline or in a storage fault, or the first refusal, for display
 * @param refusals what the authority refuses and what that holds back (empty unless {@link
 *     State#REFUSED}, or offline after one)
 */
public record SyncStatus(State state, long toPush, long toPull, Optional<String> lastError, List<Refusal> refusals) {

  public enum State {
    OFFLINE,
    SYNCING,
    SYNCED,
    REFUSED,
    STORAGE_FAULT
  }

  public SyncStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastError, "lastError");
    refusals = List.copyOf(refusals);
  }

  /** A status without refusals. */
  public SyncStatus(State state, long toPush, long toPull, Optional<String> lastError) {
    this(state, toPush, toPull, lastError, List.of());
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
      case REFUSED -> "refused (" + toPush + " to push, " + toPull + " to pull): "
          + refusals.stream().map(Refusal::toString).collect(Collectors.joining("; "));
      case STORAGE_FAULT -> "local storage fault" + (toPush > 0 ? " (" + toPush + " to push)" : "")
          + lastError.map(e -> ": " + e).orElse("");
    };
  }
}
