package dev.feedstore.examples.notes;

import dev.feedstore.client.SyncStatus;
import java.util.List;
import java.util.Objects;

/**
 * What a notes window shows: every note of every user, and the sync status in words.
 *
 * @param notes the notes by the receive time of their current versions (the authority's, the same
 *     on every replica; then this replica's unsent ones, in the order written), ties by id, so that
 *     every synced replica lists them alike
 * @param sync the sync session's status ({@link SyncStatus#OFFLINE_INITIALLY} without a server)
 * @param syncLabel {@code connecting} (no answer and no failure yet), {@code offline}, {@code
 *     syncing N} (just {@code syncing} while nothing is counted) or {@code synced}, the first two
 *     followed by {@code , N to send} when notes wait; never {@code synced} while a note in {@link
 *     #notes} is pending
 */
public record NotesView(List<Note> notes, SyncStatus sync, String syncLabel) {
  public NotesView {
    notes = List.copyOf(notes);
    Objects.requireNonNull(sync, "sync");
    Objects.requireNonNull(syncLabel, "syncLabel");
  }

  public long pendingNotes() {
    return notes.stream().filter(Note::pending).count();
  }

  /**
   * The label for a status and the notes shown with it. The status and the notes reach the model on
   * different threads, so a {@code SYNCED} status can arrive before the update that positions the
   * last note; the label then stays {@code syncing} until both agree.
   */
  static String label(SyncStatus sync, long pendingNotes, boolean hasServer) {
    return switch (sync.state()) {
      case OFFLINE -> (hasServer && sync.lastError().isEmpty() ? "connecting" : "offline")
          + (sync.toPush() > 0 || pendingNotes > 0 ? ", " + Math.max(sync.toPush(), pendingNotes) + " to send" : "");
      case SYNCING -> syncing(Math.max(sync.toPush() + sync.toPull(), pendingNotes));
      case SYNCED -> pendingNotes > 0 ? syncing(pendingNotes) : "synced";
      case REFUSED -> "refused" + toSend(Math.max(sync.toPush(), pendingNotes));
      case STORAGE_FAULT -> "disk problem" + toSend(Math.max(sync.toPush(), pendingNotes));
    };
  }

  private static String toSend(long count) {
    return count > 0 ? ", " + count + " to send" : "";
  }

  /** {@code syncing N}, or {@code syncing} when nothing is counted (the live stream is catching up). */
  private static String syncing(long count) {
    return count > 0 ? "syncing " + count : "syncing";
  }
}
