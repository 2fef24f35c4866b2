package dev.feedstore.examples.notes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.client.SyncSession;
import dev.feedstore.client.SyncStatus;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notes app's logic, headless, against a real server that is stopped and restarted. */
class NotesModelTest {
  private static final SpaceId SPACE = SpaceId.of("notes");
  private static final SyncSession.Options FAST_RETRY =
      SyncSession.Options.DEFAULTS.withBackoff(Duration.ofMillis(20), Duration.ofMillis(300));
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  RestartableServer server;
  final List<ManagedChannel> channels = new ArrayList<>();
  final List<NotesModel> models = new ArrayList<>();
  /** Every view a listener was given whose label said synced while a note was pending. */
  final List<NotesView> untruthful = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startServer() {
    server = RestartableServer.loopback(dir);
  }

  @AfterEach
  void stopEverything() {
    models.forEach(NotesModel::close);
    channels.forEach(ManagedChannel::shutdownNow);
    server.close();
  }

  @Test
  void twoInstancesSeeEachOthersNotesLiveKeepWorkingOfflineAndConvergeAfterARestart() {
    NotesModel alice = open("alice", true);
    NotesModel bob = open("bob", true);

    alice.add("buy milk");
    awaitView(bob, "bob sees alice's note", v -> texts(v).equals(List.of("buy milk")) && v.pendingNotes() == 0);
    awaitView(alice, "alice synced", v -> v.syncLabel().equals("synced"));
    awaitView(bob, "bob synced", v -> v.syncLabel().equals("synced"));
    assertEquals(ActorId.of("alice"), bob.view().notes().get(0).author());

    server.stop();
    awaitView(alice, "alice offline", v -> v.sync().state() == SyncStatus.State.OFFLINE);
    awaitView(bob, "bob offline", v -> v.sync().state() == SyncStatus.State.OFFLINE);
    alice.add("eggs, written offline");
    bob.add("bread, written offline");
    awaitView(alice, "alice shows her offline note as pending", v -> v.notes().size() == 2
        && v.notes().get(1).pending() && v.syncLabel().equals("offline, 1 to send"));
    awaitView(bob, "bob shows his offline note as pending", v -> texts(v).equals(List.of("buy milk", "bread, written offline"))
        && v.syncLabel().equals("offline, 1 to send"));

    server.start();
    for (NotesModel model : List.of(alice, bob)) {
      awaitView(model, model.user() + " has all three notes, synced", v -> v.notes().size() == 3
          && v.pendingNotes() == 0 && v.syncLabel().equals("synced"));
    }
    assertEquals(alice.view().notes(), bob.view().notes(), "both list the same notes at the same positions");
    assertEquals(3, server.store().read(tx -> tx.blocks().after(SPACE, dev.feedstore.core.Scope.WHOLE_SPACE,
        dev.feedstore.core.Position.NONE, 10)).size(), "the server holds each note once");
    assertEquals(List.of(), untruthful, "never 'synced' while a note was pending");
  }

  @Test
  void notesWrittenWithoutAServerAreSentWhenTheAppNextConnectsToOne() {
    NotesModel offline = open("carol", false);
    offline.add("written on a plane");
    assertEquals("offline, 1 to send", offline.view().syncLabel());
    offline.close();
    models.remove(offline);

    NotesModel online = open("carol", true);
    online.add("written after landing");

    awaitView(online, "both notes sent", v -> v.notes().size() == 2 && v.syncLabel().equals("synced"));
    List<FeedInfo> feeds = server.store().read(tx -> tx.feeds().list(SPACE, Optional.empty()));
    assertEquals(1, feeds.size(), "the reopened app kept writing to carol's one feed: " + feeds);
    assertEquals(List.of(), untruthful);
  }

  @Test
  void aDeletedNoteLeavesEveryInstanceAndItsTombstoneIsNotANote() {
    NotesModel alice = open("alice", true);
    NotesModel bob = open("bob", true);
    String milk = alice.add("buy milk");
    alice.add("eggs");
    awaitView(bob, "bob sees both notes", v -> texts(v).equals(List.of("buy milk", "eggs")) && v.pendingNotes() == 0);

    bob.delete(milk);

    assertEquals(List.of("eggs"), texts(bob.view()), "gone from bob's view when delete returns");
    awaitView(alice, "alice sees it gone", v -> texts(v).equals(List.of("eggs")) && v.syncLabel().equals("synced"));
    assertEquals(3, server.store().read(tx -> tx.blocks().after(SPACE, dev.feedstore.core.Scope.WHOLE_SPACE,
        dev.feedstore.core.Position.NONE, 10)).size(), "the deletion is a version of its own");
  }

  @Test
  void aBlankNoteIsRefused() {
    NotesModel model = open("dave", false);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> model.add("  "));
    assertEquals("a note must not be blank, was '  '", e.getMessage());
    assertEquals(List.of(), model.view().notes());
  }

  private NotesModel open(String user, boolean connected) {
    Optional<io.grpc.Channel> channel = Optional.empty();
    if (connected) {
      ManagedChannel managed = server.newChannel();
      channels.add(managed);
      channel = Optional.of(managed);
    }
    NotesModel model = NotesModel.open(dir.resolve(user + ".db"), ActorId.of(user), SPACE, channel, FAST_RETRY);
    models.add(model);
    model.onChange(view -> {
      if (view.syncLabel().equals("synced") && view.pendingNotes() > 0) {
        untruthful.add(view);
      }
    });
    return model;
  }

  private static void awaitView(NotesModel model, String what, java.util.function.Predicate<NotesView> condition) {
    Await.until(what + " (last view: " + model.view() + ")", WAIT, () -> condition.test(model.view()));
  }

  private static List<String> texts(NotesView view) {
    return view.notes().stream().map(Note::text).toList();
  }
}
