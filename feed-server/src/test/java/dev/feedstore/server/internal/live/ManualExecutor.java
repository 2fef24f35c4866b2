package dev.feedstore.server.internal.live;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * An executor that runs nothing until the test says so: tasks wait in one queue, oldest first, and
 * the test runs them one at a time on its own thread ({@link #runNext}), as one runner taking
 * drains in the order they were scheduled would; once {@link #shutDown}, it refuses new tasks as a
 * stopped pool does. Thread-safe: tasks may be queued from any thread.
 */
public final class ManualExecutor implements Executor {
  private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
  private volatile boolean shutDown;

  @Override
  public void execute(Runnable task) {
    if (shutDown) {
      throw new RejectedExecutionException("the test's executor is shut down");
    }
    queued.add(task);
  }

  /** Tasks waiting to run. */
  public int queued() {
    return queued.size();
  }

  /** Runs the oldest waiting task here; false when none waits. */
  boolean runNext() {
    Runnable task = queued.poll();
    if (task == null) {
      return false;
    }
    task.run();
    return true;
  }

  /** Runs waiting tasks, and those they queue, until none waits. */
  public void runAll() {
    while (runNext()) {
      // each task may queue more
    }
  }

  /** Refuses every task from now on; those waiting stay queued. */
  void shutDown() {
    shutDown = true;
  }
}
