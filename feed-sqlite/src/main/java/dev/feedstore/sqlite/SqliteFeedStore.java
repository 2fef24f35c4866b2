package dev.feedstore.sqlite;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.sqlite.internal.SqliteStore;
import dev.feedstore.store.sqlite.SchemaMigrator;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens feed stores in SQLite files, for a replica ({@link FeedStore}) or for the position
 * authority (a {@code FeedStore} is an {@link dev.feedstore.core.store.AuthorityStore}): one schema
 * serves both roles. A store is one file (plus SQLite's {@code -wal} and {@code -shm} files while
 * open), in WAL mode; its schema is migrated forward when it is opened, and a file written by a
 * newer version is refused without being changed. Every block is stored with a CRC32C
 * of its key and content and checked when it is read: a block whose bytes changed in the file is
 * reported as {@link dev.feedstore.core.store.CorruptBlockException}, never returned.
 *
 * <pre>{@code
 * try (SqliteFeedStore store = SqliteFeedStore.open(Path.of("feeds.db"))) {
 *   store.write(tx -> tx.feeds().create(space, feed, Optional.empty()));
 * }
 * }</pre>
 *
 * <p>Thread-safe. The caller owns the store and closes it.
 */
public final class SqliteFeedStore implements FeedStore {
  private final SqliteStore store;

  private SqliteFeedStore(SqliteStore store) {
    this.store = store;
  }

  /** Opens {@code file} with {@link SqliteSettings#DEFAULTS}, creating it if needed. */
  public static SqliteFeedStore open(Path file) {
    return open(file, SqliteSettings.DEFAULTS);
  }

  /**
   * Opens {@code file}, creating it if needed, and migrates its schema to {@link #schemaVersion()}.
   *
   * @throws dev.feedstore.core.store.IncompatibleStoreException if the file has a newer schema or
   *     is not a feed store (the file is left as it was)
   * @throws dev.feedstore.core.store.StoreException if the file cannot be opened
   */
  public static SqliteFeedStore open(Path file, SqliteSettings settings) {
    return new SqliteFeedStore(SqliteStore.open(file, settings, SchemaMigrator.builtIn()));
  }

  /** The schema version this code writes and reads. */
  public static int schemaVersion() {
    return SchemaMigrator.builtIn().latestVersion();
  }

  /** The absolute path of the database file. */
  public Path file() {
    return store.file();
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    return store.write(work);
  }

  @Override
  public <T> T writeRelaxed(Work<? super StoreTransaction, T> work) {
    return store.writeRelaxed(work);
  }

  /**
   * Rewrites a header value of the file with its own value (a real, durable write of one page) and
   * checks that the file system holding it has room for another page.
   *
   * @throws dev.feedstore.core.store.StorageFaultException if the file cannot be written now (disk
   *     full, read-only, I/O error)
   */
  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  /**
   * Writes a consistent copy of the store to {@code target}, which must not exist, while the store
   * stays in use (SQLite's {@code VACUUM INTO}). The copy is a complete store that {@link #open} can
   * open.
   */
  public void backupTo(Path target) {
    store.backupTo(target);
  }

  /**
   * Runs SQLite's {@code PRAGMA quick_check} over the file on a connection of its own, stopping it
   * after {@code limit}. Reads only; meant for the start of a process, before it serves (on a file
   * of some GiB it reads for seconds). Blocks.
   *
   * @throws dev.feedstore.core.store.StoreException if the check cannot run at all
   */
  public QuickCheck quickCheck(Duration limit) {
    return store.quickCheck(limit);
  }

  @Override
  public void close() {
    store.close();
  }
}
