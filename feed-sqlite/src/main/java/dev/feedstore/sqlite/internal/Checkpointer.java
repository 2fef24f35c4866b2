package dev.feedstore.sqlite.internal;

import java.nio.file.Path;
import java.sql.Connection;
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
 * block the writer or readers), at most every {@value #INTERVAL_MS} ms and only after commits.
 * The writer keeps an automatic checkpoint at a higher threshold ({@link #WRITER_THRESHOLD_PAGES})
 * as a bound on the WAL should this thread fall behind. A checkpoint changes nothing a commit made
 * durable: it copies pages that are already safe in the WAL.
 *
 * <p>Thread-safe. Owns its connection and thread; {@link #close} stops both.
 */
final class Checkpointer implements AutoCloseable {
  /** The writer's own automatic checkpoint, as a backstop: 4x SQLite's default. */
  static final int WRITER_THRESHOLD_PAGES = 4000;
  private static final long INTERVAL_MS = 100;
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
        checkpoint();
        lock.lock();
        try {
          long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS);
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

  private void checkpoint() {
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA wal_checkpoint(PASSIVE)");
    } catch (SQLException e) {
      // The next commit asks again, and the writer's own threshold bounds the WAL meanwhile.
      log.debug("background checkpoint of {} failed: {}", file, e.getMessage());
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
