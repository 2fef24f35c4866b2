package dev.feedstore.examples.notes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.client.SyncStatus;
import dev.feedstore.client.SyncStatus.State;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NotesViewTest {
  private static final Optional<String> REFUSED = Optional.of("UNAVAILABLE: io exception");

  @Test
  void labelsSayWhatIsPendingAndNeverSyncedWhileANoteIsPending() {
    assertEquals("connecting", label(State.OFFLINE, 0, 0, Optional.empty(), 0, true));
    assertEquals("offline", label(State.OFFLINE, 0, 0, Optional.empty(), 0, false));
    assertEquals("offline, 2 to send", label(State.OFFLINE, 2, 0, REFUSED, 2, true));
    assertEquals("offline, 1 to send", label(State.OFFLINE, 0, 0, REFUSED, 1, true), "a note the session has not counted yet");
    assertEquals("syncing 5", label(State.SYNCING, 2, 3, Optional.empty(), 2, true));
    assertEquals("syncing", label(State.SYNCING, 0, 0, Optional.empty(), 0, true), "a live stream catching up");
    assertEquals("synced", label(State.SYNCED, 0, 0, Optional.empty(), 0, true));
    assertEquals("syncing 1", label(State.SYNCED, 0, 0, Optional.empty(), 1, true),
        "a synced status from before the last note was written");
    assertEquals("refused, 3 to send", label(State.REFUSED, 3, 0, Optional.of("pushes to team refused"), 3, true));
    assertEquals("disk problem", label(State.STORAGE_FAULT, 0, 0, Optional.of("disk full"), 0, true));
  }

  private static String label(State state, long toPush, long toPull, Optional<String> error, long pending,
      boolean hasServer) {
    return NotesView.label(new SyncStatus(state, toPush, toPull, error), pending, hasServer);
  }
}
