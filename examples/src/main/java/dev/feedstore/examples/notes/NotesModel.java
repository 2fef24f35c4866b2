package dev.feedstore.examples.notes;

import dev.feedstore.client.LiveQueryRegistration;
import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.SyncStatus;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.json.JsonWriter;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.result.ResultCopy;
import io.grpc.Channel;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The notes app without its window: one user's replica of a space's {@value #NAMESPACE} namespace.
 * A note is a document keyed by its {@code /id}: each version a block {@code {"id", "text",
 * "createdAt"}} of the writer's own feed in the namespace (created with their first note), deleted
 * by a version {@code {"id", "deleted": true}}. Every instance replicates the whole namespace and
 * follows one live query over it, which gives the notes in order; the model keeps what is its own:
 * the sync status, its feed, and who to tell. Notes are written locally first and work offline; a
 * {@link SyncSession} sends and receives them whenever the server is reachable.
 *
 * <p>{@link #onChange} listeners are called with a new {@link NotesView} after every change of the
 * notes or of the sync status, on the replica's listener thread or the sync thread; they must
 * return quickly (a Swing window hands the view to the event thread).
 *
 * <p>Thread-safe. Owns its replica and session; the channel stays the caller's.
 */
public final class NotesModel implements AutoCloseable {
  /** The namespace of every notes feed. */
  public static final String NAMESPACE = "notes";
  /** How long a write waits to show in the view. */
  private static final Duration SHOWN = Duration.ofSeconds(10);

  private static final Namespace NOTES = Namespace.of(NAMESPACE);

  private final Replica replica;
  private final SpaceId space;
  private final boolean hasServer;
  private final Object lock = new Object();
  private final List<Consumer<NotesView>> listeners = new CopyOnWriteArrayList<>();
  private final SecureRandom random = new SecureRandom();
  /** Guarded by lock: the notes, in the query's order (sent ones by receive time, then unsent ones). */
  private final ResultCopy notes;
  /** Guarded by lock. */
  private SyncStatus status = SyncStatus.OFFLINE_INITIALLY;
  /** Guarded by lock. */
  private Optional<FeedId> ownFeed;
  private final LiveQueryRegistration notesRegistration;
  private final Optional<SyncSession> session;
  private final Optional<Registration> statusRegistration;

  private NotesModel(Replica replica, SpaceId space, Optional<Channel> channel, SyncSession.Options options) {
    this.replica = replica;
    this.space = space;
    this.hasServer = channel.isPresent();
    replica.replicateNamespace(space, NOTES, true);
    this.ownFeed = findOwnFeed();
    LiveQuery query = LiveQuery.parse("namespace:" + NAMESPACE + " key:/id tombstone /deleted = true"
        + " order receivedAt asc", space);
    this.notes = new ResultCopy(query);
    this.notesRegistration = replica.liveQuery(query, event -> {
      synchronized (lock) {
        event.applyTo(notes);
      }
      publish();
    });
    awaitShown();
    this.session = channel.map(c -> AuthorityChannel.connect(replica, c, options));
    this.statusRegistration = session.map(s -> s.onStatus(this::statusChanged));
  }

  /**
   * Opens (creating if needed) the notes of {@code user} in {@code file}, and syncs them through
   * {@code channel} if one is given.
   */
  public static NotesModel open(Path file, ActorId user, SpaceId space, Optional<Channel> channel) {
    return open(file, user, space, channel, SyncSession.Options.DEFAULTS);
  }

  /** Like {@link #open(Path, ActorId, SpaceId, Optional)}, with the sync session's options. */
  public static NotesModel open(Path file, ActorId user, SpaceId space, Optional<Channel> channel,
      SyncSession.Options options) {
    Replica replica = Replica.open(file, user);
    try {
      return new NotesModel(replica, space, channel, options);
    } catch (RuntimeException e) {
      replica.close();
      throw e;
    }
  }

  public ActorId user() {
    return replica.actorId();
  }

  /**
   * Writes a note, with or without a connection; it is in {@link #view()} as pending when this
   * returns, and is sent when the server is reachable.
   *
   * @return the note's id
   * @throws IllegalArgumentException if the text is blank
   */
  public String add(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("a note must not be blank, was '" + text + "'");
    }
    long now = Clock.systemUTC().millis();
    String id = String.format("%013d-%08x", now, random.nextInt());
    write(Map.of("id", JsonValue.of(id), "text", JsonValue.of(text.strip()), "createdAt", JsonValue.of(now)));
    return id;
  }

  /** Deletes the note {@code id} (for everybody, once sent); it is gone from {@link #view()} when this returns. */
  public void delete(String id) {
    write(Map.of("id", JsonValue.of(Objects.requireNonNull(id, "id")), "deleted", JsonValue.of(true)));
  }

  /** The notes and sync status now. */
  public NotesView view() {
    synchronized (lock) {
      List<Note> shown = notes.rows().stream().map(Note::of).toList();
      long pending = shown.stream().filter(Note::pending).count();
      return new NotesView(shown, status, NotesView.label(status, pending, hasServer));
    }
  }

  /** Calls {@code listener} with the current view, then after every change. */
  public Registration onChange(Consumer<NotesView> listener) {
    listeners.add(listener);
    listener.accept(view());
    return () -> listeners.remove(listener);
  }

  /** Stops syncing and closes the replica. */
  @Override
  public void close() {
    statusRegistration.ifPresent(Registration::close);
    notesRegistration.close();
    session.ifPresent(SyncSession::close);
    replica.close();
  }

  /** Appends a version to this user's feed (made at the first write), and waits until the view shows it. */
  private void write(Map<String, JsonValue> version) {
    FeedId feed;
    synchronized (lock) {
      if (ownFeed.isEmpty()) {
        ownFeed = Optional.of(replica.createFeed(space, Optional.of(NOTES), Replication.fullHistory()));
      }
      feed = ownFeed.get();
    }
    replica.append(space, feed, BlockData.utf8(JsonWriter.canonical(JsonObject.of(version))));
    // Shown at once, pending, rather than when the listener thread gets to it: a view taken right
    // after a write must show it (and must not say "synced").
    awaitShown();
  }

  private void awaitShown() {
    try {
      if (!notesRegistration.awaitCurrent(SHOWN)) {
        throw new IllegalStateException("the notes query did not show the replica's writes within " + SHOWN);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the notes query caught up", e);
    }
  }

  private void statusChanged(SyncStatus newStatus) {
    synchronized (lock) {
      status = newStatus;
    }
    publish();
  }

  private void publish() {
    NotesView view = view();
    listeners.forEach(listener -> listener.accept(view));
  }

  /** This user's notes feed: the feed of the namespace that this replica created (its first block is this actor's). */
  private Optional<FeedId> findOwnFeed() {
    for (FeedInfo info : replica.feeds(space)) {
      if (info.namespace().equals(Optional.of(NOTES))
          && replica.read(space, info.feedId()).stream().findFirst().filter(b -> b.actorId().equals(user())).isPresent()) {
        return Optional.of(info.feedId());
      }
    }
    return Optional.empty();
  }
}
