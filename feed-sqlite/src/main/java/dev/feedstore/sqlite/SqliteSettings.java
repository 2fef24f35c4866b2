package dev.feedstore.sqlite;

import dev.feedstore.core.InvalidValueException;
import java.time.Duration;
import java.util.Objects;

/**
 * The SQLite settings of a store, in one typed place. The journal is always WAL, so readers never
 * block the writer; foreign keys are always on.
 *
 * @param synchronous how hard a commit waits for the disk: {@link Synchronous#FULL} (the default)
 *     makes a committed transaction survive a power loss; {@link Synchronous#NORMAL} survives a
 *     process crash but may lose the last commits on power loss, and is faster
 * @param busyTimeout how long to wait for a lock held by another process before failing
 * @param readers how many read connections may be open at once (reads run in parallel)
 * @param cacheKib the page cache per connection, in KiB
 */
public record SqliteSettings(Synchronous synchronous, Duration busyTimeout, int readers, int cacheKib) {

  /** SQLite's {@code PRAGMA synchronous} levels that are safe in WAL mode. */
  public enum Synchronous {
    NORMAL,
    FULL
  }

  public static final SqliteSettings DEFAULTS =
      new SqliteSettings(Synchronous.FULL, Duration.ofSeconds(5), 4, 16 * 1024);

  public SqliteSettings {
    Objects.requireNonNull(synchronous, "synchronous");
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
      throw new InvalidValueException("busyTimeout", "must be between 0 and " + Integer.MAX_VALUE + " ms", busyTimeout);
    }
    if (readers < 1 || readers > 64) {
      throw new InvalidValueException("readers", "must be between 1 and 64", readers);
    }
    if (cacheKib < 64) {
      throw new InvalidValueException("cacheKib", "must be >= 64", cacheKib);
    }
  }

  public SqliteSettings withSynchronous(Synchronous value) {
    return new SqliteSettings(value, busyTimeout, readers, cacheKib);
  }

  public SqliteSettings withBusyTimeout(Duration value) {
    return new SqliteSettings(synchronous, value, readers, cacheKib);
  }

  public SqliteSettings withReaders(int value) {
    return new SqliteSettings(synchronous, busyTimeout, value, cacheKib);
  }

  public SqliteSettings withCacheKib(int value) {
    return new SqliteSettings(synchronous, busyTimeout, readers, value);
  }
}
