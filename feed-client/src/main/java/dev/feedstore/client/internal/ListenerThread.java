package dev.feedstore.client.internal;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread on which a replica tells its listeners (feed listeners and live queries) what
 * changed, one task at a time, in the order they were handed over. Thread-safe.
 */
public final class ListenerThread implements AutoCloseable {
  private final ScheduledThreadPoolExecutor executor;
  private volatile Thread thread;

  public ListenerThread() {
    this.executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread created = new Thread(r, "feedstore-listeners");
      created.setDaemon(true);
      thread = created;
      return created;
    });
    // A retry waiting for its time is dropped at close rather than waited for.
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Runs {@code task} after the tasks handed over before it; nothing once closed. */
  void execute(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException closed) {
      // the replica is closing: nobody is told anything more
    }
  }

  /** Runs {@code task} after {@code delay}; nothing once closed. */
  void schedule(Runnable task, Duration delay) {
    try {
      executor.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // as above
    }
  }

  /** Whether the caller runs on this thread. */
  boolean isCurrent() {
    return Thread.currentThread() == thread;
  }

  /** Runs what was handed over already (waiting up to 5 s for it), then stops the thread. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
