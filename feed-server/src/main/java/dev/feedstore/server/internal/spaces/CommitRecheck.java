package dev.feedstore.server.internal.spaces;

import dev.feedstore.server.internal.monitoring.NamedThreads;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Reads the positions of the spaces in memory again after commits of other processes may have been
 * missed (a shared store heard nothing for a while: {@link
 * dev.feedstore.core.store.CommitListener#missedCommits}), on a thread of its own, so that neither
 * the store's listening thread nor the appends wait for the database. Each space is read on its
 * own: one whose read fails (the database is back for the listening connection but not yet for the
 * pool) does not hold up the others, and is read again after a pause that doubles from {@value
 * #FIRST_PAUSE_MILLIS} ms up to {@value #MAX_PAUSE_MILLIS} ms, until its read succeeds. Until then its
 * watchers wait for the next commit told, as they would have had nothing been missed.
 *
 * <p>Thread-safe. {@link #close} stops the thread; reads due then are not made.
 */
public final class CommitRecheck implements AutoCloseable {
  static final long FIRST_PAUSE_MILLIS = 50;
  static final long MAX_PAUSE_MILLIS = 2_000;

  private final Supplier<List<SpaceState>> spaces;
  private final Predicate<SpaceState> recheck;
  private final Logger log;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
      new NamedThreads("feed-recheck"));
  /** The spaces to read again, each with the number of the request that asked last. */
  private final Map<SpaceState, Long> due = new ConcurrentHashMap<>();
  private final AtomicLong requests = new AtomicLong();
  // Confined to the thread.
  private long pause = FIRST_PAUSE_MILLIS;
  private boolean retryDue;
  private boolean failing;

  /**
   * @param spaces the spaces in memory now
   * @param recheck reads one space's position again and moves its tail; true when its history went
   *     back; throws if the store fails
   */
  public CommitRecheck(Supplier<List<SpaceState>> spaces, Predicate<SpaceState> recheck, Logger log) {
    this.spaces = spaces;
    this.recheck = recheck;
    this.log = log;
  }

  /** Commits may have been missed: every space in memory is read again, soon. Does not block. */
  public void missedCommits() {
    long request = requests.incrementAndGet();
    for (SpaceState space : spaces.get()) {
      due.put(space, request);
    }
    try {
      thread.execute(this::run);
    } catch (RejectedExecutionException e) {
      // Closed: the server is stopping.
    }
  }

  /** Reads every space due once; schedules another round for those that failed. */
  private void run() {
    int failed = 0;
    RuntimeException failure = null;
    for (Map.Entry<SpaceState, Long> space : List.copyOf(due.entrySet())) {
      try {
        if (recheck.test(space.getKey())) {
          log.warn("the history of space {} went back to position {} (its store was restored from a backup, or"
              + " failed over and lost commits): its open streams end with ABORTED, and their clients check what"
              + " they hold when they reconnect", space.getKey().spaceId(), space.getKey().tail().committed());
        }
        due.remove(space.getKey(), space.getValue()); // unless asked again meanwhile
      } catch (RuntimeException e) {
        failed++;
        failure = e;
      }
    }
    if (failure == null) {
      if (failing) {
        log.info("read the positions of the spaces again after missed commits");
      }
      failing = false;
      pause = FIRST_PAUSE_MILLIS;
      return;
    }
    if (!failing) {
      log.warn("could not read the positions of {} spaces again after missed commits ({}); their watchers wait"
          + " for their next commit until a read succeeds, tried again every {} ms at most", failed,
          failure.getMessage(), MAX_PAUSE_MILLIS);
    }
    failing = true;
    if (retryDue) {
      return; // a round is scheduled already
    }
    try {
      thread.schedule(this::retry, pause, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return; // closed
    }
    retryDue = true;
    pause = Math.min(MAX_PAUSE_MILLIS, pause * 2);
  }

  private void retry() {
    retryDue = false;
    run();
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
