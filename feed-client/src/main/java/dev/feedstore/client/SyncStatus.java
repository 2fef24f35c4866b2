package dev.feedstore.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where a replica's sync stands, and why it is not synced. {@link State#SYNCED} is reported only
 * when every local block of every replicated feed has a position and every live stream has caught
 * up; it leaves synced as soon as a local change is made or a live stream ends (the space may have
 * to catch up or repair), before sync has done that work. Otherwise the state says what stands in
 * the way, the first that applies:
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
 * <p>History the authority compacted before this replica pulled it is not a state: no retry brings
 * it back. It is listed in {@link #historyUnavailable()}, whatever the state, for as long as the
 * replica's policies need positions up to the floor (the replica remembers it in its file, across
 * restarts; a policy that starts above the floor no longer needs it, a swap to another store forgets
 * it). A replica with only such a gap and nothing else left is {@link State#SYNCED}: it holds every
 * block of its policies above the floor, pushes, and follows the live tail. Check {@code
 * historyUnavailable().isEmpty()} as well when "synced" must also mean "complete".
 *
 * @param state the state
 * @param toPush unpositioned blocks of replicated feeds (refused ones included)
 * @param toPull an upper bound of positions between the cursors and the authority's highest
 *     position at its last answer (positions of feeds not replicated here count too)
 * @param lastError the failure while offline or in a storage fault, or the first refusal, for display
 * @param refusals what the authority refuses and what that holds back (empty unless {@link
 *     State#REFUSED}, or offline after one)
 * @param historyUnavailable per space, the history the replica's policies need that the authority
 *     compacted before the replica pulled it (see above); empty when nothing is missing
 */
public record SyncStatus(State state, long toPush, long toPull, Optional<String> lastError, List<Refusal> refusals,
    List<HistoryGap> historyUnavailable) {

  /** What stands in the way of a synced replica, as the class comment lists them. */
  public enum State {
    /** The authority cannot be reached. */
    OFFLINE,
    /** Work is left, and under way. */
    SYNCING,
    /** Nothing left to push or pull. */
    SYNCED,
    /** The authority answers but refuses something. */
    REFUSED,
    /** The replica's own file failed. */
    STORAGE_FAULT
  }

  /** Checks that the state and the error are given, and copies the lists. */
  public SyncStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastError, "lastError");
    refusals = List.copyOf(refusals);
    historyUnavailable = List.copyOf(historyUnavailable);
  }

  /** A status with no history unavailable. */
  public SyncStatus(State state, long toPush, long toPull, Optional<String> lastError, List<Refusal> refusals) {
    this(state, toPush, toPull, lastError, refusals, List.of());
  }

  /** A status without refusals, with no history unavailable. */
  public SyncStatus(State state, long toPush, long toPull, Optional<String> lastError) {
    this(state, toPush, toPull, lastError, List.of());
  }

  /** The status before a session first reaches the authority. */
  public static final SyncStatus OFFLINE_INITIALLY = new SyncStatus(State.OFFLINE, 0, 0, Optional.empty());

  /** True when the state is {@link State#SYNCED}. */
  public boolean isSynced() {
    return state == State.SYNCED;
  }

  @Override
  public String toString() {
    String gaps = historyUnavailable.isEmpty() ? ""
        : "; " + historyUnavailable.stream().map(HistoryGap::toString).collect(Collectors.joining("; "));
    return stateText() + gaps;
  }

  private String stateText() {
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
