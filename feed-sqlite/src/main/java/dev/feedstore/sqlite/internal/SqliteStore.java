package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.sqlite.SqliteSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
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
 * so a relaxed commit can be lost to a power cut only together with everything after it.
 * Thread-safe.
 */
public final class SqliteStore implements FeedStore {
  static {
    // jOOQ prints a logo and a "tip of the day" when it first renders SQL, into the application's
    // log; a storage library has no business there. An application that sets these keeps its say.
    quietByDefault("org.jooq.no-logo");
    quietByDefault("org.jooq.no-tips");
  }

  private static final Settings JOOQ_SETTINGS = new Settings()
      .withExecuteLogging(false)
      .withRenderSchema(false);

  private final Path file;
  private final SqliteSettings settings;
  /** A connection with its jOOQ context and its prepared statements. */
  private record Handle(Connection connection, DSLContext dsl, Statements statements) {
    Handle(Connection connection) {
      this(connection, DSL.using(connection, SQLDialect.SQLITE, JOOQ_SETTINGS), new Statements(connection));
    }

    void close() {
      statements.close();
      closeQuietly(connection);
    }
  }

  private final Handle writer;
  private final Checkpointer checkpointer;
  private final ReentrantLock writeLock = new ReentrantLock();
  /** Guarded by writeLock: whether the writer commits with synchronous=NORMAL now. */
  private boolean writerRelaxed;
  private final Semaphore readerPermits;
  private final BlockingQueue<Handle> idleReaders;
  private final List<Handle> allReaders = new ArrayList<>();
  private final IdCache ids = new IdCache();
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
      writer = connect(absolute, settings, false);
      migrator.migrate(writer, absolute);
      try (Statement statement = writer.createStatement()) {
        statement.execute("PRAGMA wal_autocheckpoint = " + Checkpointer.WRITER_THRESHOLD_PAGES);
      }
      checkpoints = connect(absolute, settings, false);
      return new SqliteStore(absolute, settings, writer, new Checkpointer(absolute, checkpoints));
    } catch (SQLException e) {
      closeQuietly(writer);
      closeQuietly(checkpoints);
      throw SqlErrors.translate(absolute, "opening the database", e);
    } catch (RuntimeException e) {
      closeQuietly(writer);
      closeQuietly(checkpoints);
      throw e;
    }
  }

  public Path file() {
    return file;
  }

  private static void quietByDefault(String property) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, "true");
    }
  }

  @Override
  public <T> T write(Work<T> work) {
    return write(work, false);
  }

  @Override
  public <T> T writeRelaxed(Work<T> work) {
    return write(work, settings.synchronous() == SqliteSettings.Synchronous.FULL);
  }

  private <T> T write(Work<T> work, boolean relaxed) {
    if (writeLock.isHeldByCurrentThread()) {
      throw new IllegalStateException("write transactions do not nest: this thread is already in one");
    }
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      writeLock.lock();
      try {
        if (relaxed != writerRelaxed) {
          // A connection setting, taken up by the next commit; never changed inside a transaction.
          execute(writer, relaxed ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL",
              "setting synchronous");
          writerRelaxed = relaxed;
        }
        T result = inTransaction(writer, "BEGIN IMMEDIATE", true, work);
        checkpointer.committed();
        return result;
      } finally {
        writeLock.unlock();
      }
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  @Override
  public <T> T read(Work<T> work) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      readerPermits.acquireUninterruptibly();
      Handle reader = null;
      try {
        reader = takeReader();
        return inTransaction(reader, "BEGIN", false, work);
      } finally {
        if (reader != null) {
          idleReaders.add(reader);
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
        try (Statement statement = reader.connection().createStatement()) {
          statement.execute("VACUUM INTO '" + target.toAbsolutePath().toString().replace("'", "''") + "'");
        }
      } catch (SQLException e) {
        throw SqlErrors.translate(file, "backing up to " + target, e);
      } finally {
        if (reader != null) {
          idleReaders.add(reader);
        }
        readerPermits.release();
      }
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
      writer.statements().close();
      try (Statement statement = writer.connection().createStatement()) {
        // Folds the WAL back into the main file so that a closed store is a single file.
        statement.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      } catch (SQLException e) {
        // The WAL stays beside the file and is replayed on the next open; nothing is lost.
      }
      closeQuietly(writer.connection());
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  private <T> T inTransaction(Handle handle, String begin, boolean writable, Work<T> work) {
    Connection connection = handle.connection();
    IdCache.Pending pending = ids.pending();
    SqliteTransaction tx = new SqliteTransaction(handle.dsl(), handle.statements(), pending, writable);
    execute(handle, begin, "beginning a transaction");
    boolean committed = false;
    try {
      T result = work.run(tx);
      if (writable) {
        tx.flush();
      }
      execute(handle, "COMMIT", "committing");
      committed = true;
      pending.publish();
      return result;
    } catch (RuntimeException e) {
      throw SqlErrors.isSqlError(e) ? SqlErrors.translate(file, writable ? "writing" : "reading", e) : e;
    } finally {
      if (!committed) {
        try (Statement statement = connection.createStatement()) {
          statement.execute("ROLLBACK");
        } catch (SQLException ignored) {
          // No transaction was open (BEGIN or COMMIT itself failed and SQLite ended it).
        }
      }
    }
  }

  /** Runs a statement of the transaction's frame (BEGIN, COMMIT) prepared once per connection. */
  private void execute(Handle handle, String sql, String action) {
    try {
      handle.statements().get(sql).execute();
    } catch (SQLException | RuntimeException e) {
      throw SqlErrors.translate(file, action, e);
    }
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
