package dev.feedstore.postgres.internal;

import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CommitListener;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears the commits of every process that shares the database: each append's transaction sends
 * {@code NOTIFY feedstore_commits, 'INSTANCE SPACE HIGHEST'} (with its claim of positions), which
 * PostgreSQL delivers at commit, in commit order, to every session that listens. One thread holds one
 * dedicated connection (not the pool's) and passes what other instances committed to the listener.
 *
 * <p>A lost connection is noticed within {@link #CHECK_MILLIS} (it is asked a trivial query while
 * quiet); the thread connects again with a growing pause (up to {@link #MAX_PAUSE_MILLIS}), listens,
 * and then tells the listener that commits may have been missed, so readers re-read from their
 * cursors. Thread-safe; {@link #close} stops the thread.
 */
final class CommitChannel implements AutoCloseable {
  static final String CHANNEL = "feedstore_commits";
  static final long CHECK_MILLIS = 2_000;
  static final long MAX_PAUSE_MILLIS = 2_000;
  private static final Logger LOG = LoggerFactory.getLogger(CommitChannel.class);

  private final Supplier<Connection> connect;
  private final String instance;
  private final CommitListener listener;
  private final Thread thread;
  private volatile boolean closed;
  /** Only the thread touches it, and close() to break a wait. */
  private volatile Connection connection;

  /**
   * @param connect opens a new connection (auto-commit on), or throws
   * @param instance the id of this store instance, whose own notifications are skipped
   */
  CommitChannel(Supplier<Connection> connect, String instance, CommitListener listener) {
    this.connect = connect;
    this.instance = instance;
    this.listener = listener;
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

  private void run() {
    long pause = 50;
    boolean first = true;
    while (!closed) {
      try {
        Connection c = connect.get();
        connection = c;
        try (Statement statement = c.createStatement()) {
          statement.execute("LISTEN " + CHANNEL);
        }
        if (!first) {
          LOG.info("listening for other processes' commits again; watchers re-read from their cursors");
        }
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
      if (notifications == null || notifications.length == 0) {
        try (Statement statement = c.createStatement()) {
          statement.execute("SELECT 1"); // fails on a lost connection, which a quiet wait would not notice
        }
        continue;
      }
      for (PGNotification notification : notifications) {
        deliver(notification.getParameter());
      }
    }
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
