package dev.feedstore.client.internal;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Commits whose changes listeners are told of run one at a time, each together with the telling,
 * so that listeners hear of them in commit order; and a reader can start between two of them
 * ({@link #fence}), so that what it reads is exactly what it has heard of. SQLite serializes the
 * writes anyway; this adds the telling to each. Thread-safe.
 */
public final class CommitOrder {
  private final ReentrantLock lock = new ReentrantLock();

  /** Runs {@code commitAndTell}: one write transaction and the calls that tell its changes. */
  public <T> T commit(Supplier<T> commitAndTell) {
    lock.lock();
    try {
      return commitAndTell.get();
    } finally {
      lock.unlock();
    }
  }

  /** Holds commits back until the fence is released: no commit ends, or is told, meanwhile. */
  Fence fence() {
    lock.lock();
    return new Fence();
  }

  /** A held fence. Not thread-safe: released by the thread that took it. */
  final class Fence implements AutoCloseable {
    private boolean released;

    /** Lets commits run again; nothing if released already. */
    void release() {
      if (!released) {
        released = true;
        lock.unlock();
      }
    }

    @Override
    public void close() {
      release();
    }
  }
}
