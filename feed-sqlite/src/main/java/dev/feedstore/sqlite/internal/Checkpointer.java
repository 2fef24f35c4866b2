package dev.feedstore.sqlite.internal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves committed pages from the WAL into the database file on a thread of its own, so that a
 * commit never waits for a checkpoint: SQLite's automatic checkpoint runs inside the commit that
 * crosses its threshold and fsyncs the WAL and the database file there, which made every few
 * hundredth commit tens of milliseconds slower. Checkpoints here are {@code PASSIVE} (they never
 * block the writer or readers), only after commits: again after {@value #BUSY_INTERVAL_MS} ms while
 * commits keep the WAL growing by {@value #BUSY_FRAMES} frames or more between checkpoints (a
 * catch-up, a burst of appends), otherwise after {@value #QUIET_INTERVAL_MS} ms, so that a trickle
 * of small commits does not pay two fsyncs of a checkpoint every few commits.
 * The writer keeps an automatic checkpoint at a higher threshold ({@link #WRITER_THRESHOLD_PAGES})
 * as a bound on the WAL should this thread fall behind. A checkpoint changes nothing a commit made
 * durable: it copies pages that are already safe in the WAL.
 *
 * <p>Thread-safe. Owns its connection and thread; {@link #close} stops both.
 */
final class Checkpointer implements AutoCloseable {
  /** The writer's own automatic checkpoint, as a backstop: 4x SQLite's default. */
  static final int WRITER_THRESHOLD_PAGES = 4000;
  private static final long BUSY_INTERVAL_MS = 100;
  private static final long QUIET_INTERVAL_MS = 1000;
  private static final int BUSY_FRAMES = 500;
  private static final Logger log = LoggerFactory.getLogger(Checkpointer.class);

  private final Path file;
  private final Connection connection;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition committed = lock.newCondition();
  /** Guarded by lock. */
  private long commits;
  /** Guarded by lock. */
  private boolean closing;
  /** Confined to the thread: frames the previous checkpoint reported copied (the WAL restarts at 0). */
  private long copiedBefore;

  Checkpointer(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
    this.thread = new Thread(this::run, "feedstore-checkpoint " + file.getFileName());
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** A write transaction committed: a checkpoint is due soon. Never blocks for long. */
  void committed() {
    lock.lock();
    try {
      commits++;
      committed.signal();
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    long done = 0;
    try {
      while (true) {
        lock.lock();
        try {
          while (commits == done && !closing) {
            committed.await();
          }
          if (closing) {
            return;
          }
          done = commits;
        } finally {
          lock.unlock();
        }
        long copied = checkpoint();
        lock.lock();
        try {
          long interval = copied >= BUSY_FRAMES ? BUSY_INTERVAL_MS : QUIET_INTERVAL_MS;
          long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(interval);
          long left;
          while (!closing && (left = until - System.nanoTime()) > 0) {
            committed.awaitNanos(left);
          }
        } finally {
          lock.unlock();
        }
      }
    } catch (InterruptedException e) {
      // Only close() stops the thread; an interrupt from elsewhere ends it too, and the writer's
      // own threshold keeps checkpointing.
    }
  }

  /** Runs one checkpoint; returns how many WAL frames it copied (0 if it failed). */
  private long checkpoint() {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(SqliteDialect.CHECKPOINT_PASSIVE)) {
      long copied = result.next() ? Math.max(0, result.getLong(3)) : 0;
      // The count is of the current WAL, which starts again from its beginning after a checkpoint
      // that copied everything: a smaller count than last time means a new WAL.
      long copiedNow = copied >= copiedBefore ? copied - copiedBefore : copied;
      copiedBefore = copied;
      return copiedNow;
    } catch (SQLException e) {
      // The next commit asks again, and the writer's own threshold bounds the WAL meanwhile.
      log.debug("background checkpoint of {} failed: {}", file, e.getMessage());
      return 0;
    }
  }

  /** Stops the thread (waiting for a checkpoint under way) and closes the connection. Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      committed.signal();
    } finally {
      lock.unlock();
    }
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing is best effort; the WAL is replayed on the next open.
    }
  }
}
