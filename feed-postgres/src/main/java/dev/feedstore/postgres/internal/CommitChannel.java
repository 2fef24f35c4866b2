package dev.feedstore.postgres.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CommitListener;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears the commits of every process that shares the database, in the spaces this process follows:
 * each append's transaction sends {@code NOTIFY} on its space's own channel ({@link #channelOf}) with
 * {@code 'INSTANCE SPACE HIGHEST'} (with its claim of positions), which PostgreSQL delivers at commit,
 * in commit order, to every session that listens on that channel. One thread holds one dedicated
 * connection (not the pool's), listens on the channel of every followed space, and passes what other
 * instances committed to the listener. A process that does not hold a space is not woken by its
 * commits.
 *
 * <p>{@link #follow} returns once the space's channel is listened to (or the connection is down, in
 * which case the next connection listens and says that commits may have been missed), so that a
 * read of the space after it misses nothing; the thread is woken for it by a notice on a channel of
 * this instance's own. {@link #unfollow} takes effect at the thread's next turn.
 *
 * <p>A lost connection is noticed within {@link #CHECK_MILLIS} (it is asked a trivial query while
 * quiet); the thread connects again with a growing pause (up to {@link #MAX_PAUSE_MILLIS}), listens,
 * and then tells the listener that commits may have been missed, so readers re-read from their
 * cursors. Thread-safe; {@link #close} stops the thread.
 */
final class CommitChannel implements AutoCloseable {
  /** What every space's channel starts with; the md5 of the space id (ASCII) in hex follows. */
  static final String PREFIX = "feedstore_";
  static final long CHECK_MILLIS = 2_000;
  static final long MAX_PAUSE_MILLIS = 2_000;
  private static final Logger LOG = LoggerFactory.getLogger(CommitChannel.class);

  /** A space followed or no longer followed, for the thread to listen to or stop. */
  private record Change(SpaceId spaceId, CompletableFuture<Void> applied) {}

  private final Supplier<Connection> connect;
  private final String instance;
  private final CommitListener listener;
  /** Sends a notice on {@link #wakeChannel}: the thread has changes to make. */
  private final Consumer<String> notify;
  /** This instance's own channel, on which {@link #follow} wakes the thread. */
  private final String wakeChannel;
  /** The spaces followed now: the thread listens to each one's channel. */
  private final Set<SpaceId> followed = ConcurrentHashMap.newKeySet();
  private final Queue<Change> changes = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile boolean closed;
  /** The thread listens on a live connection: a follow waits for its change. */
  private volatile boolean connected;
  /** Set when a follow stopped waiting before its change was made: commits may have been missed. */
  private volatile boolean late;
  /** Only the thread touches it, and close() to break a wait. */
  private volatile Connection connection;

  /**
   * @param connect opens a new connection (auto-commit on), or throws
   * @param instance the id of this store instance, whose own notifications are skipped
   * @param notify sends an empty notice on the channel it is given, through another connection
   */
  CommitChannel(Supplier<Connection> connect, String instance, CommitListener listener, Consumer<String> notify) {
    this.connect = connect;
    this.instance = instance;
    this.listener = listener;
    this.notify = notify;
    this.wakeChannel = PREFIX + "wake_" + instance.replace("-", "");
    this.thread = new Thread(this::run, "feed-postgres-listen");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /**
   * The text of a notification up to the position: who committed, in which space, and a space; the
   * claim appends the space's new highest position to it.
   */
  static String payloadPrefix(String instance, SpaceId spaceId) {
    return instance + ' ' + spaceId.value() + ' ';
  }

  /**
   * The channel of a space's commit notices: {@link #PREFIX} and the md5 of its id in lower-case hex,
   * 42 characters (a channel's name has at most 63, an id up to 128), the same in either case of an id.
   */
  static String channelOf(SpaceId spaceId) {
    try {
      byte[] digest = MessageDigest.getInstance("MD5").digest(spaceId.value().getBytes(StandardCharsets.US_ASCII));
      return PREFIX + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has MD5", e);
    }
  }

  /**
   * Hears the commits of {@code spaceId} from now on: returns once its channel is listened to, or at
   * once while the connection is down (the next one listens, then says commits may have been missed),
   * or after {@link #CHECK_MILLIS} (then the same is said once the channel is listened to).
   */
  void follow(SpaceId spaceId) {
    if (!followed.add(spaceId) || closed) {
      return;
    }
    Change change = new Change(spaceId, new CompletableFuture<>());
    changes.add(change);
    if (!connected) {
      return;
    }
    try {
      notify.accept(wakeChannel);
      change.applied().get(CHECK_MILLIS, TimeUnit.MILLISECONDS);
    } catch (RuntimeException | ExecutionException | TimeoutException e) {
      late = true;
    } catch (InterruptedException e) {
      late = true;
      Thread.currentThread().interrupt();
    }
  }

  /** No longer hears the commits of {@code spaceId}, from the thread's next turn. */
  void unfollow(SpaceId spaceId) {
    if (followed.remove(spaceId)) {
      changes.add(new Change(spaceId, new CompletableFuture<>()));
    }
  }

  private void run() {
    long pause = 50;
    boolean first = true;
    while (!closed) {
      try {
        Connection c = connect.get();
        connection = c;
        List<Change> covered = drainChanges();
        StringBuilder listen = new StringBuilder("LISTEN \"").append(wakeChannel).append('"');
        for (SpaceId spaceId : followed) {
          listen.append("; LISTEN ").append(channelOf(spaceId));
        }
        try (Statement statement = c.createStatement()) {
          statement.execute(listen.toString());
        }
        connected = true;
        covered.forEach(change -> change.applied().complete(null));
        if (!first) {
          LOG.info("listening for other processes' commits again; watchers re-read from their cursors");
        }
        late = false;
        listener.missedCommits(); // whatever committed before LISTEN took effect
        first = false;
        pause = 50;
        listen(c);
      } catch (RuntimeException | SQLException e) {
        if (closed) {
          return;
        }
        LOG.warn("lost the connection that hears other processes' commits ({}); connecting again", e.getMessage());
      } finally {
        connected = false;
        closeQuietly(connection);
        connection = null;
      }
      try {
        TimeUnit.MILLISECONDS.sleep(pause); // a pause before connecting again, not a wait for a condition
      } catch (InterruptedException e) {
        return;
      }
      pause = Math.min(MAX_PAUSE_MILLIS, pause * 2);
    }
  }

  private void listen(Connection c) throws SQLException {
    PGConnection pg = c.unwrap(PGConnection.class);
    while (!closed) {
      PGNotification[] notifications = pg.getNotifications((int) CHECK_MILLIS);
      boolean changed = applyChanges(c);
      if (notifications == null || notifications.length == 0) {
        if (!changed) {
          try (Statement statement = c.createStatement()) {
            statement.execute("SELECT 1"); // fails on a lost connection, which a quiet wait would not notice
          }
        }
        continue;
      }
      for (PGNotification notification : notifications) {
        if (!notification.getName().equals(wakeChannel)) {
          deliver(notification.getParameter());
        }
      }
    }
  }

  /**
   * Listens to the channels of spaces followed since the last turn and stops those no longer
   * followed, in one round trip; then completes their follows, and says commits may have been
   * missed if a follow stopped waiting.
   *
   * @return whether there was anything to do
   */
  private boolean applyChanges(Connection c) throws SQLException {
    List<Change> batch = drainChanges();
    if (batch.isEmpty()) {
      return false;
    }
    StringBuilder sql = new StringBuilder();
    for (Change change : batch) {
      sql.append(sql.length() == 0 ? "" : "; ").append(followed.contains(change.spaceId()) ? "LISTEN " : "UNLISTEN ")
          .append(channelOf(change.spaceId()));
    }
    try (Statement statement = c.createStatement()) {
      statement.execute(sql.toString());
    }
    batch.forEach(change -> change.applied().complete(null));
    if (late) {
      late = false;
      listener.missedCommits();
    }
    return true;
  }

  private List<Change> drainChanges() {
    List<Change> batch = new ArrayList<>();
    for (Change change = changes.poll(); change != null; change = changes.poll()) {
      batch.add(change);
    }
    return batch;
  }

  private void deliver(String payload) {
    String[] parts = payload.split(" ");
    if (parts.length != 3 || parts[0].equals(instance)) {
      return;
    }
    try {
      listener.committed(new SpaceId(parts[1]), Position.of(Long.parseLong(parts[2])));
    } catch (RuntimeException e) {
      LOG.warn("ignored a notification that is not a commit of this store: '{}' ({})", payload, e.getMessage());
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    closeQuietly(connection);
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // closing a connection that is gone already
      }
    }
  }
}
