package dev.feedstore.server.internal.authority;

import dev.feedstore.core.SpaceId;
import dev.feedstore.server.internal.monitoring.NamedThreads;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Applies retention to every space of the store every {@code retention-interval-ms}, on a thread of
 * its own (a long compaction delays no heartbeat). Several processes sharing a store may each run
 * it: compaction is idempotent and the floor only moves up. Thread-safe.
 */
public final class RetentionRunner implements AutoCloseable {
  private final PositionAuthority authority;
  private final RateLimitedLog failures;
  private final long intervalMillis;
  private final ScheduledExecutorService runner =
      Executors.newSingleThreadScheduledExecutor(new NamedThreads("feed-retention"));

  public RetentionRunner(PositionAuthority authority, RateLimitedLog failures, long intervalMillis) {
    this.authority = authority;
    this.failures = failures;
    this.intervalMillis = intervalMillis;
  }

  public void start() {
    runner.scheduleWithFixedDelay(this::runQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Applies retention to every stored space once; blocks until done.
   *
   * @return how many blocks it removed
   */
  public long runOnce() {
    long removed = 0;
    for (SpaceId spaceId : authority.storedSpaces()) {
      removed += authority.applyRetention(spaceId).removed();
    }
    return removed;
  }

  private void runQuietly() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      failures.log("applying retention failed; it runs again in " + intervalMillis + " ms", e);
    }
  }

  @Override
  public void close() {
    runner.shutdownNow();
  }
}
