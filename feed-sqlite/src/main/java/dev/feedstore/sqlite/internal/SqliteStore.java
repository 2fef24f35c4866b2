package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.sqlite.QuickCheck;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.store.IdCache;
import dev.feedstore.store.StatementCache;
import dev.feedstore.store.TokenKey;
import dev.feedstore.store.sqlite.SchemaMigrator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * A feed store in one SQLite file: one write connection, used under a lock, and a small pool of
 * read-only connections, each with its cache of prepared statements. Transactions are explicit
 * ({@code BEGIN IMMEDIATE} for writes, {@code BEGIN} for reads) on connections in auto-commit mode,
 * so that no connection ever holds a transaction, and with it an old WAL snapshot, between units of
 * work. Checkpoints run on a thread of their own ({@link Checkpointer}), so commits do not wait for
 * them. {@link #writeRelaxed} commits with {@code synchronous=NORMAL}, which in WAL mode skips the
 * fsync of the commit: the WAL is append-only and every later {@code FULL} commit syncs it whole,
 * so a relaxed commit can be lost to a power cut only together with everything after it. A
 * transaction that fails on the storage (a full disk, a read-only file, an I/O error) is rolled
 * back and leaves no dead prepared statement or open transaction behind, so the next one succeeds
 * once the cause is gone.
 * Thread-safe.
 */
public final class SqliteStore implements FeedStore {
  private final Path file;
  private final SqliteSettings settings;
  /** A connection with its prepared statements. Used by one transaction at a time, like its connection. */
  private static final class Handle {
    final Connection connection;
    final StatementCache statements;
    /**
     * Whether the connection must be replaced: a transaction may still be open on it after a
     * failure (its ROLLBACK failed for another reason than having none to roll back), or it met a
     * read-only file or an I/O error, which a new connection may not (SQLite opens a file it cannot
     * write read-only, and keeps it so for the life of the connection).
     */
    boolean stale;

    Handle(Connection connection) {
      this.connection = connection;
      this.statements = new StatementCache(connection);
    }

    void close() {
      statements.close();
      closeQuietly(connection);
    }
  }

  /** Guarded by writeLock; null after a failure made it stale, until the next write opens another. */
  private Handle writer;
  private final Checkpointer checkpointer;
  private final ReentrantLock writeLock = new ReentrantLock();
  /**
   * Set when a write finds the disk full (or the probe finds no room for a page), cleared once the
   * whole WAL was copied into the file: while set, every write first copies it if there is room,
   * and is refused saying how much to free if there is not ({@link #copyWal}). Otherwise a
   * checkpoint, which runs after commits, would take whatever space was freed part of the way and
   * fail, and writes would not come back until more than the WAL's growth was freed at once.
   */
  private volatile boolean diskFull;
  /** Guarded by writeLock: whether the writer commits with synchronous=NORMAL now. */
  private boolean writerRelaxed;
  private final Semaphore readerPermits;
  private final BlockingQueue<Handle> idleReaders;
  private final List<Handle> allReaders = new ArrayList<>();
  private final IdCache ids;
  private final TokenKey tokenKey = new TokenKey();
  /** Held shared by every transaction and exclusively by {@link #close}. */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
  private volatile boolean closed;

  private SqliteStore(Path file, SqliteSettings settings, Connection writer, Checkpointer checkpointer) {
    this.file = file;
    this.settings = settings;
    this.writer = new Handle(writer);
    this.checkpointer = checkpointer;
    this.readerPermits = new Semaphore(settings.readers());
    this.idleReaders = new ArrayBlockingQueue<>(settings.readers());
    this.ids = new IdCache(settings.cachedFeeds());
  }

  /**
   * Opens (creating if needed) the store in {@code file} and migrates its schema forward.
   *
   * @throws dev.feedstore.core.store.IncompatibleStoreException if the file is newer or foreign
   * @throws StoreException if it cannot be opened
   */
  public static SqliteStore open(Path file, SqliteSettings settings, SchemaMigrator migrator) {
    Path absolute = file.toAbsolutePath();
    Connection writer = null;
    Connection checkpoints = null;
    try {
      writer = connectForCheck(absolute, settings);
      migrator.check(writer, absolute);
      useWal(writer, absolute);
      migrator.migrate(writer, absolute);
      limitWriterCheckpoints(writer);
      checkpoints = connect(absolute, settings, false);
      return new SqliteStore(absolute, settings, writer, new Checkpointer(absolute, checkpoints));
    } catch (SQLException e) {
      closeQuietly(writer);
      closeQuietly(checkpoints);
      throw OpenErrors.translate(absolute, e);
    } catch (RuntimeException e) {
      closeQuietly(writer);
      closeQuietly(checkpoints);
      throw e;
    }
  }

  public Path file() {
    return file;
  }

  /** How many feed rows the store holds in memory now (at most {@link SqliteSettings#cachedFeeds}). */
  int cachedFeedRows() {
    return ids.feedRows();
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    return write(work, false);
  }

  @Override
  public <T> T writeRelaxed(Work<? super StoreTransaction, T> work) {
    return write(work, settings.synchronous() == SqliteSettings.Synchronous.FULL);
  }

  private <T> T write(Work<? super StoreTransaction, T> work, boolean relaxed) {
    if (writeLock.isHeldByCurrentThread()) {
      throw new IllegalStateException("write transactions do not nest: this thread is already in one");
    }
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      writeLock.lock();
      try {
        Handle handle = writer();
        try {
          if (diskFull) {
            copyWal(handle);
          }
          try {
            if (relaxed != writerRelaxed) {
              // A connection setting, taken up by the next commit; never changed inside a transaction.
              execute(handle, relaxed ? SqliteDialect.SYNCHRONOUS_NORMAL : SqliteDialect.SYNCHRONOUS_FULL,
                  "setting synchronous");
              writerRelaxed = relaxed;
            }
            T result = inTransaction(handle, SqliteDialect.BEGIN_WRITE, true, work);
            checkpointer.committed();
            return result;
          } catch (StorageFaultException e) {
            if (e.kind() != StorageFaultException.Kind.FULL) {
              throw e;
            }
            diskFull = true;
            throw fullDisk(handle, e);
          }
        } finally {
          if (handle.stale) {
            // Closing the connection ends whatever it still holds; the next write opens another.
            handle.close();
            writer = null;
          }
        }
      } finally {
        writeLock.unlock();
      }
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Rewrites the file's schema version with its own value in a write transaction (a real write of
   * one page, made durable like any commit), then checks that the file system holding the file has
   * room for another page: a small commit can succeed on a full disk, in WAL space that earlier
   * commits (or a failed one) left behind, while the next larger one would not. After a full disk
   * the write succeeds only once the WAL could be copied into the file ({@link WalRoom}).
   */
  @Override
  public void probeWrite() {
    long pageSize = write(tx -> ((SqliteTransaction) tx).rewriteHeader());
    long usable = WalRoom.usableBytes(file);
    if (usable >= 0 && usable < pageSize) {
      diskFull = true;
      // Refused, saying how much to free for the WAL's copy; or, should space have been freed just
      // now, the copy is made and the write succeeds.
      write(tx -> null);
    }
  }

  /**
   * After a full disk: copies the whole WAL into the file ({@code wal_checkpoint(TRUNCATE)}, which
   * also gives the WAL's space back) if the file system has the room for it, and clears {@link
   * #diskFull} once it did. Needs the write lock.
   *
   * @throws StorageFaultException if there is not the room, saying how much to free; nothing was
   *     copied, so the space already free stays for the copy
   */
  private void copyWal(Handle handle) {
    WalRoom room;
    try {
      room = WalRoom.of(handle.connection, file);
    } catch (SQLException e) {
      throw SqlErrors.translate(file, "measuring the WAL", e);
    } catch (IOException e) {
      room = null; // Without the file's size, the checkpoint itself finds whether it fits.
    }
    long usable = WalRoom.usableBytes(file);
    if (room != null && !room.fits(usable)) {
      throw room.refusal(file, usable, "", null);
    }
    try (Statement statement = handle.connection.createStatement();
        ResultSet rs = statement.executeQuery(SqliteDialect.CHECKPOINT_TRUNCATE)) {
      // busy, frames in the WAL, frames copied: a reader still on an old snapshot leaves some behind,
      // and the next write copies again.
      if (rs.next() && rs.getInt(1) == 0 && rs.getLong(2) == rs.getLong(3)) {
        diskFull = false;
      }
    } catch (SQLException e) {
      RuntimeException failure = SqlErrors.translate(file, "copying the WAL into the file", e);
      throw failure instanceof StorageFaultException fault && fault.kind() == StorageFaultException.Kind.FULL
          ? fullDisk(handle, fault) : failure;
    }
  }

  /** {@code e}, a full disk, with what the WAL holds and how much to free added when it can be measured. */
  private StorageFaultException fullDisk(Handle handle, StorageFaultException e) {
    try {
      return WalRoom.of(handle.connection, file).refusal(file, WalRoom.usableBytes(file), e.detail(), e);
    } catch (SQLException | IOException | RuntimeException measuring) {
      return e;
    }
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      readerPermits.acquireUninterruptibly();
      Handle reader = null;
      try {
        reader = takeReader();
        return inTransaction(reader, SqliteDialect.BEGIN_READ, false, work);
      } finally {
        if (reader != null) {
          giveBack(reader);
        }
        readerPermits.release();
      }
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Writes a consistent copy of the database to {@code target} (which must not exist) while the
   * store stays in use, with SQLite's {@code VACUUM INTO}.
   */
  public void backupTo(Path target) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      readerPermits.acquireUninterruptibly();
      Handle reader = null;
      try {
        reader = takeReader();
        try (Statement statement = reader.connection.createStatement()) {
          statement.execute(SqliteDialect.vacuumInto(target));
        }
      } catch (SQLException e) {
        throw SqlErrors.translate(file, "backing up to " + target, e);
      } finally {
        if (reader != null) {
          giveBack(reader);
        }
        readerPermits.release();
      }
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Runs {@code PRAGMA quick_check} on a read connection of its own, interrupted after {@code
   * limit}, and reports what it found.
   */
  public QuickCheck quickCheck(Duration limit) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      return IntegrityChecks.quickCheck(file, () -> connect(file, settings, true), limit);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      checkpointer.close();
      synchronized (allReaders) {
        allReaders.forEach(Handle::close);
        allReaders.clear();
      }
      if (writer != null) {
        writer.statements.close();
        try (Statement statement = writer.connection.createStatement()) {
          statement.execute(SqliteDialect.CHECKPOINT_TRUNCATE);
        } catch (SQLException e) {
          // The WAL stays beside the file and is replayed on the next open; nothing is lost.
        }
        closeQuietly(writer.connection);
        writer = null;
      }
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  /**
   * Runs the work between {@code begin} and COMMIT. On any failure the transaction is rolled back;
   * after a failure in SQL the connection's prepared statements are discarded (the driver may have
   * finalized them), and a connection whose ROLLBACK failed, or that met a read-only file or an I/O
   * error, is marked stale for its owner to replace. So a failed commit (a full disk, an I/O error) never leaves a dead statement or an open
   * transaction behind: the next transaction works as soon as the cause is gone.
   */
  private <T> T inTransaction(Handle handle, String begin, boolean writable,
      Work<? super StoreTransaction, T> work) {
    IdCache.Pending pending = ids.pending();
    SqliteTransaction tx = new SqliteTransaction(handle.statements, pending, tokenKey, writable);
    execute(handle, begin, "beginning a transaction");
    boolean committed = false;
    try {
      T result = work.run(tx);
      if (writable) {
        tx.flush();
      }
      execute(handle, SqliteDialect.COMMIT, "committing");
      committed = true;
      pending.publish();
      return result;
    } catch (RuntimeException e) {
      if (!SqlErrors.isSqlError(e)) {
        throw e;
      }
      throw failed(handle, SqlErrors.translate(file, writable ? "writing" : "reading", e));
    } finally {
      if (!committed) {
        rollback(handle);
      }
    }
  }

  private static void rollback(Handle handle) {
    try (Statement statement = handle.connection.createStatement()) {
      statement.execute(SqliteDialect.ROLLBACK);
    } catch (SQLException e) {
      // Mostly there is none to roll back: BEGIN or COMMIT itself failed, or the error made SQLite
      // roll back on its own (SQLITE_FULL and I/O errors may). Anything else may leave it open.
      String message = String.valueOf(e.getMessage());
      if (!message.contains("no transaction is active")) {
        handle.stale = true;
      }
    }
  }

  /**
   * Runs a statement of the transaction's frame (BEGIN, COMMIT) prepared once per connection; on
   * failure the connection's statements are discarded, this one among them.
   */
  private void execute(Handle handle, String sql, String action) {
    try {
      handle.statements.get(sql).execute();
    } catch (SQLException | RuntimeException e) {
      throw failed(handle, SqlErrors.translate(file, action, e));
    }
  }

  /**
   * Discards the connection's statements after a failure in SQL, and marks the connection stale if
   * the failure was a read-only file or an I/O error; returns the failure.
   */
  private static RuntimeException failed(Handle handle, RuntimeException failure) {
    handle.statements.discard();
    if (failure instanceof StorageFaultException fault && (fault.kind() == StorageFaultException.Kind.READ_ONLY
        || fault.kind() == StorageFaultException.Kind.IO)) {
      handle.stale = true;
    }
    return failure;
  }

  /** The write connection, opened again if a failure closed it. Needs the write lock. */
  private Handle writer() {
    if (writer == null) {
      Connection connection = null;
      try {
        connection = connect(file, settings, false);
        limitWriterCheckpoints(connection);
      } catch (SQLException e) {
        closeQuietly(connection);
        throw SqlErrors.translate(file, "opening the write connection again", e);
      }
      writer = new Handle(connection);
      writerRelaxed = false;
    }
    return writer;
  }

  private static void limitWriterCheckpoints(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(SqliteDialect.autoCheckpoint(Checkpointer.WRITER_THRESHOLD_PAGES));
    }
  }

  /** Returns a reader to the pool, or closes it if it is stale. */
  private void giveBack(Handle reader) {
    if (!reader.stale) {
      idleReaders.add(reader);
      return;
    }
    synchronized (allReaders) {
      allReaders.remove(reader);
    }
    reader.close();
  }

  private void execute(Connection connection, String sql, String action) {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw SqlErrors.translate(file, action, e);
    }
  }

  private Handle takeReader() {
    Handle reader = idleReaders.poll();
    if (reader != null) {
      return reader;
    }
    try {
      Handle created = new Handle(connect(file, settings, true));
      synchronized (allReaders) {
        allReaders.add(created);
      }
      return created;
    } catch (SQLException e) {
      throw SqlErrors.translate(file, "opening a read connection", e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new StoreException("feed store " + file + " is closed");
    }
  }

  /**
   * The writer's connection before the file is known to be a feed store: every setting but the
   * journal mode, which SQLite writes into the file's header (sqlite-jdbc would apply it on connect,
   * switching another application's database to WAL before it is refused).
   */
  private static Connection connectForCheck(Path file, SqliteSettings settings) throws SQLException {
    Properties properties = settings.toJdbcProperties();
    properties.remove(SQLiteConfig.Pragma.JOURNAL_MODE.pragmaName);
    return DriverManager.getConnection("jdbc:sqlite:" + file, properties);
  }

  /** Switches a checked file to WAL, which every later connection then finds in its header. */
  private static void useWal(Connection writer, Path file) throws SQLException {
    try (Statement statement = writer.createStatement();
        ResultSet rs = statement.executeQuery(SqliteDialect.JOURNAL_WAL)) {
      String mode = rs.next() ? rs.getString(1) : "";
      if (!mode.equalsIgnoreCase("wal")) {
        throw new StoreException("feed store " + file + ": SQLite could not switch it to WAL mode (its journal"
            + " mode stayed '" + mode + "'); keep the file on a local file system");
      }
    }
  }

  private static Connection connect(Path file, SqliteSettings settings, boolean readOnly) throws SQLException {
    Properties properties = settings.toJdbcProperties();
    if (readOnly) {
      SQLiteConfig config = new SQLiteConfig(properties);
      config.setReadOnly(true);
      config.resetOpenMode(SQLiteOpenMode.CREATE);
      properties = config.toProperties();
    }
    return DriverManager.getConnection("jdbc:sqlite:" + file, properties);
  }

  private static void closeQuietly(Connection connection) {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing is best effort; SQLite recovers from the WAL on the next open.
    }
  }
}
