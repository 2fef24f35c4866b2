package dev.feedstore.examples.notes;

import dev.feedstore.client.FeedUpdate;
import dev.feedstore.client.Registration;
import dev.feedstore.client.Replica;
import dev.feedstore.client.SyncSession;
import dev.feedstore.client.SyncStatus;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import io.grpc.Channel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The notes app without its window: one user's replica of a space's {@value #NAMESPACE} namespace.
 * Each user writes to a feed of their own in that namespace (created with the first note); every
 * instance replicates the whole namespace, so it sees everybody's notes, including feeds created
 * later. Notes are written locally first and work offline; a {@link SyncSession} sends and receives
 * them whenever the server is reachable.
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

  private static final Namespace NOTES = Namespace.of(NAMESPACE);
  private static final Comparator<Note> SPACE_ORDER = Comparator
      .comparing((Note n) -> n.pending())
      .thenComparing(n -> n.pending() ? n.writtenAt() : n.position().value())
      .thenComparing(n -> n.key().toString());

  private final Replica replica;
  private final SpaceId space;
  private final ActorId user;
  private final boolean hasServer;
  private final Object lock = new Object();
  private final List<Consumer<NotesView>> listeners = new CopyOnWriteArrayList<>();
  /** Guarded by lock. */
  private final Map<FeedId, List<Block>> feeds = new HashMap<>();
  /** Guarded by lock. */
  private SyncStatus status = SyncStatus.OFFLINE_INITIALLY;
  /** Guarded by lock. */
  private Optional<FeedId> ownFeed;
  private final Registration notesRegistration;
  private final Optional<SyncSession> session;
  private final Optional<Registration> statusRegistration;

  private NotesModel(Replica replica, SpaceId space, Optional<Channel> channel, SyncSession.Options options) {
    this.replica = replica;
    this.space = space;
    this.user = replica.actorId();
    this.hasServer = channel.isPresent();
    replica.replicateNamespace(space, NOTES, true);
    this.ownFeed = findOwnFeed();
    this.notesRegistration = replica.listen(space, Scope.namespace(NOTES), this::notesChanged);
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
    return user;
  }

  /**
   * Writes a note, with or without a connection; it is in {@link #view()} as pending when this
   * returns, and is sent when the server is reachable.
   *
   * @throws IllegalArgumentException if the text is blank
   */
  public void add(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new IllegalArgumentException("a note must not be blank, was '" + text + "'");
    }
    FeedId feed;
    synchronized (lock) {
      if (ownFeed.isEmpty()) {
        ownFeed = Optional.of(replica.createFeed(space, Optional.of(NOTES), Replication.fullHistory()));
      }
      feed = ownFeed.get();
    }
    replica.append(space, feed, BlockData.utf8(text.strip()));
    // Shown at once, pending, rather than when the listener thread gets to it: a view taken right
    // after add() must not say "synced".
    List<Block> content = replica.read(space, feed);
    synchronized (lock) {
      feeds.put(feed, content);
    }
    publish();
  }

  /** The notes and sync status now. */
  public NotesView view() {
    synchronized (lock) {
      List<Note> notes = new ArrayList<>();
      feeds.values().forEach(blocks -> blocks.forEach(b -> notes.add(Note.of(b))));
      notes.sort(SPACE_ORDER);
      long pending = notes.stream().filter(Note::pending).count();
      return new NotesView(notes, status, NotesView.label(status, pending, hasServer));
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

  private void notesChanged(FeedUpdate update) {
    synchronized (lock) {
      feeds.putAll(update.feeds());
    }
    publish();
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

  /** This user's notes feed: the feed of the namespace whose blocks this replica's actor wrote. */
  private Optional<FeedId> findOwnFeed() {
    for (FeedInfo info : replica.feeds(space)) {
      if (info.namespace().equals(Optional.of(NOTES))) {
        List<Block> blocks = replica.read(space, info.feedId());
        if (!blocks.isEmpty() && blocks.get(0).actorId().equals(user)) {
          return Optional.of(info.feedId());
        }
      }
    }
    return Optional.empty();
  }
}
