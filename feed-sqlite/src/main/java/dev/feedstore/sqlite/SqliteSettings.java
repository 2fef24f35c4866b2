package dev.feedstore.sqlite;

import dev.feedstore.core.InvalidValueException;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.sqlite.SQLiteConfig;

/**
 * The SQLite settings of a store, in one typed place. The journal is always WAL, so readers never
 * block the writer; a store switches a file to it only once the file is known to be a feed store
 * (or empty), because the journal mode is written into the file. Foreign keys are always on.
 *
 * @param synchronous how hard a commit waits for the disk: {@link Synchronous#FULL} (the default)
 *     makes a committed transaction survive a power loss; {@link Synchronous#NORMAL} survives a
 *     process crash but may lose the last commits on power loss, and is faster
 * @param busyTimeout how long to wait for a lock held by another process before failing
 * @param readers how many read connections may be open at once (reads run in parallel)
 * @param cacheKib the page cache per connection, in KiB
 * @param cachedFeeds the most feeds whose rows (private id, feed id, namespace) the store keeps in
 *     memory, and the most spaces likewise; beyond it the store forgets rows and reads them again
 *     when they are used. Each cached feed costs about 250 bytes of heap ({@value
 *     #DEFAULT_CACHED_FEEDS} by default: about 12 MiB)
 */
public record SqliteSettings(Synchronous synchronous, Duration busyTimeout, int readers, int cacheKib,
    int cachedFeeds) {

  /** SQLite's {@code PRAGMA synchronous} levels that are safe in WAL mode. */
  public enum Synchronous {
    /** A commit survives a process crash; the last ones may be lost on power loss. */
    NORMAL,
    /** A commit survives a power loss. */
    FULL
  }

  /** The default of {@link #cachedFeeds}. */
  public static final int DEFAULT_CACHED_FEEDS = 50_000;
  /** The least {@link #cachedFeeds}. */
  public static final int MIN_CACHED_FEEDS = 16;

  /** FULL commits, a 5 s busy timeout, 4 readers, a 16 MiB page cache, {@value #DEFAULT_CACHED_FEEDS} cached feeds. */
  public static final SqliteSettings DEFAULTS =
      new SqliteSettings(Synchronous.FULL, Duration.ofSeconds(5), 4, 16 * 1024, DEFAULT_CACHED_FEEDS);

  /** Checks each value against its bounds, naming it. */
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
    if (cachedFeeds < MIN_CACHED_FEEDS) {
      throw new InvalidValueException("cachedFeeds", "must be >= " + MIN_CACHED_FEEDS, cachedFeeds);
    }
  }

  /**
   * These settings as sqlite-jdbc connection properties: WAL journal (applied on connect, so only
   * for files known to be feed stores), {@code synchronous}, foreign keys on, busy timeout and page
   * cache (and no generated-keys lookups: the store reads new ids with {@code RETURNING}). Every
   * connection of a store is opened with them once its file has been checked; tools that open a
   * store's file themselves (the benchmark's raw SQLite limit) can use the same.
   */
  public Properties toJdbcProperties() {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(synchronous == Synchronous.FULL
        ? SQLiteConfig.SynchronousMode.FULL
        : SQLiteConfig.SynchronousMode.NORMAL);
    config.enforceForeignKeys(true);
    config.setBusyTimeout((int) busyTimeout.toMillis());
    config.setCacheSize(-cacheKib);
    // Ids of new rows come from RETURNING; without this sqlite-jdbc matches every executed statement
    // against a pattern to find inserts whose keys it would fetch, which cost a regex per statement.
    config.setGetGeneratedKeys(false);
    return config.toProperties();
  }

  /** These settings with {@code value} as {@link #synchronous}. */
  public SqliteSettings withSynchronous(Synchronous value) {
    return new SqliteSettings(value, busyTimeout, readers, cacheKib, cachedFeeds);
  }

  /** These settings with {@code value} as {@link #busyTimeout}. */
  public SqliteSettings withBusyTimeout(Duration value) {
    return new SqliteSettings(synchronous, value, readers, cacheKib, cachedFeeds);
  }

  /** These settings with {@code value} as {@link #readers}. */
  public SqliteSettings withReaders(int value) {
    return new SqliteSettings(synchronous, busyTimeout, value, cacheKib, cachedFeeds);
  }

  /** These settings with {@code value} as {@link #cacheKib}. */
  public SqliteSettings withCacheKib(int value) {
    return new SqliteSettings(synchronous, busyTimeout, readers, value, cachedFeeds);
  }

  /** These settings with {@code value} as {@link #cachedFeeds}. */
  public SqliteSettings withCachedFeeds(int value) {
    return new SqliteSettings(synchronous, busyTimeout, readers, cacheKib, value);
  }
}
