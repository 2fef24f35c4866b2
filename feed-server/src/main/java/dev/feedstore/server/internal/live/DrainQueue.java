package dev.feedstore.server.internal.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the drains of live streams on at most {@code runners} threads of a pool, taking them from one
 * queue in the order they were scheduled. A commit signals every stream of its space; through this
 * queue a thousand signals hand work to the pool at most {@code runners} times (a runner already
 * running takes the rest), instead of waking a pool thread for each stream.
 *
 * <p>Each drain must be short (a follower sends a few batches and then schedules itself again), so
 * that one runner serves all its streams in turn. Thread-safe. Does not own the pool.
 */
public final class DrainQueue implements Executor {
  private final Executor pool;
  private final int runners;
  private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
  private final AtomicInteger running = new AtomicInteger();

  public DrainQueue(Executor pool, int runners) {
    if (runners < 1) {
      throw new IllegalArgumentException("runners must be >= 1, was " + runners);
    }
    this.pool = pool;
    this.runners = runners;
  }

  /**
   * Queues {@code drain} and starts a runner unless {@code runners} are running.
   *
   * @throws RejectedExecutionException if no runner is running and the pool refuses one (it is
   *     shut down); {@code drain} is then not queued
   */
  @Override
  public void execute(Runnable drain) {
    queued.add(drain);
    if (!startRunner() && running.get() == 0 && queued.remove(drain)) {
      throw new RejectedExecutionException("the pool of live streams is shut down");
    }
  }

  /**
   * Queues every drain of {@code drains} at once and starts a runner unless {@code runners} are
   * running: a commit that signals a thousand streams links their drains privately and splices them
   * into the queue in one step, where {@link #execute} for each would contend, drain by drain, with
   * the runners polling the queue.
   *
   * @return the drains refused, not queued: all of them when no runner runs and the pool refuses one
   *     (it is shut down); else none
   */
  public List<Runnable> executeAll(List<Runnable> drains) {
    if (drains.isEmpty()) {
      return List.of();
    }
    queued.addAll(drains);
    if (startRunner() || running.get() != 0) {
      return List.of();
    }
    List<Runnable> refused = new ArrayList<>();
    for (Runnable drain : drains) {
      if (queued.remove(drain)) {
        refused.add(drain);
      }
    }
    return refused;
  }

  /** Starts a runner unless enough run; false when the pool refused it. */
  private boolean startRunner() {
    int now;
    do {
      now = running.get();
      if (now >= runners) {
        return true;
      }
    } while (!running.compareAndSet(now, now + 1));
    try {
      pool.execute(this::run);
      return true;
    } catch (RejectedExecutionException e) {
      running.decrementAndGet();
      return false;
    }
  }

  private void run() {
    try {
      Runnable drain;
      while ((drain = queued.poll()) != null) {
        drain.run();
      }
    } finally {
      running.decrementAndGet();
      // A drain queued after the last poll, while every runner was still counted, has no runner yet.
      if (!queued.isEmpty()) {
        startRunner();
      }
    }
  }
}
