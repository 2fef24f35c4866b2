package dev.feedstore.postgres.internal;

import com.zaxxer.hikari.HikariDataSource;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.postgres.PostgresSettings;
import dev.feedstore.store.IdCache;
import dev.feedstore.store.Sql;
import dev.feedstore.store.SqlFailure;
import dev.feedstore.store.SqlTransaction;
import dev.feedstore.store.StatementCache;
import dev.feedstore.store.TokenKey;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

/**
 * The transactions of {@link dev.feedstore.postgres.PostgresStore}: one pooled connection each, with
 * the shared store views ({@link SqlTransaction}) in {@link PostgresDialect}, committed when the work
 * returns, rolled back when it throws, run again on a deadlock or a serialization failure, failures
 * translated by {@link PgFaults}. A transaction keeps nothing it read for the next one (other
 * processes write the database) but the token secret, which never changes. Thread-safe.
 */
public final class PgStore implements AutoCloseable {
  /** Runs of one write that met a deadlock or serialization failure, the first included. */
  private static final int ATTEMPTS = 5;

  private final HikariDataSource pool;
  private final PostgresSettings settings;
  private final Path database;
  private final String instance = UUID.randomUUID().toString();
  private final PostgresDialect dialect = new PostgresDialect(instance);
  private final TokenKey tokenKey = new TokenKey();
  private final Object listening = new Object();
  /** Guarded by listening. */
  private CommitChannel channel;
  /** Guarded by listening: the spaces whose commits the listener hears ({@link #follow}). */
  private final Set<SpaceId> followed = new HashSet<>();
  private volatile boolean closed;

  public PgStore(HikariDataSource pool, Path database, PostgresSettings settings) {
    this.pool = pool;
    this.settings = settings;
    this.database = database;
  }

  public Path database() {
    return database;
  }

  /** Creates or migrates the schema; returns the version found. */
  public int migrate() {
    try (Connection c = pool.getConnection()) {
      return PgSchema.migrate(c, database);
    } catch (SQLException e) {
      throw PgFaults.translate(e, database, "while preparing its schema");
    }
  }

  public <T> T run(boolean writable, AuthorityStore.Work<? super AuthorityTransaction, T> work) {
    return attempts(writable, (c, statements) -> {
      if (!writable) {
        try (Statement statement = c.createStatement()) {
          statement.execute(PostgresDialect.READ_ONLY);
        }
      }
      SqlTransaction tx = new SqlTransaction(dialect, new Sql(statements), IdCache.transactionOnly(), tokenKey,
          writable);
      T result = work.run(tx);
      tx.flush();
      c.commit();
      return result;
    });
  }

  /**
   * {@link AuthorityStore#appendAllNew}: the function's call alone, in auto-commit, so that its
   * statement's commit (with the fsync and the {@code NOTIFY}) is the group's, in the call's round
   * trip ({@link PgAppend#runAllNew}).
   */
  public Optional<List<SpaceAppend.Stored>> appendAllNew(List<SpaceAppend> appends, long feedsPerSpace) {
    return attempts(true, (c, statements) -> {
      c.setAutoCommit(true); // no transaction is open: the driver sends nothing for it, nor for setting it back
      try {
        return PgAppend.runAllNew(new Sql(statements), appends, dialect, feedsPerSpace);
      } finally {
        c.setAutoCommit(false);
      }
    });
  }

  /** What runs on a pooled connection, with its statements prepared once per run. */
  private interface OnConnection<T> {
    T run(Connection c, StatementCache statements) throws SQLException;
  }

  /**
   * Runs {@code body} on a pooled connection, rolled back when it throws, run again on a deadlock or
   * a serialization failure when {@code writable}; failures translated by {@link PgFaults}.
   */
  private <T> T attempts(boolean writable, OnConnection<T> body) {
    if (closed) {
      throw new StoreException("the store of " + database + " is closed");
    }
    for (int attempt = 1; ; attempt++) {
      Connection c;
      try {
        c = pool.getConnection();
      } catch (SQLException e) {
        throw PgFaults.translate(e, database, "connecting");
      }
      // Prepared once per transaction; the driver keeps each text prepared on the server itself.
      try (StatementCache statements = new StatementCache(c)) {
        try {
          return body.run(c, statements);
        } catch (SQLException | SqlFailure e) {
          rollbackQuietly(c);
          if (writable && attempt < ATTEMPTS && PgFaults.isRetryable(e)) {
            continue;
          }
          throw PgFaults.translate(e, database, writable ? "writing" : "reading");
        } catch (RuntimeException | Error e) {
          rollbackQuietly(c);
          throw e;
        }
      } finally {
        try {
          c.close();
        } catch (SQLException e) {
          // the pool replaces a connection it cannot take back
        }
      }
    }
  }

  public void probeWrite() {
    run(true, tx -> ((SqlTransaction) tx).sql().update(PostgresDialect.PROBE));
  }

  public void listen(CommitListener listener) {
    synchronized (listening) {
      if (channel != null) {
        channel.close();
        channel = null;
      }
      if (listener != null && !closed) {
        channel = new CommitChannel(this::listenerConnection, instance, listener, this::wake);
        followed.forEach(channel::follow); // not connected yet: its first connection listens to them all
      }
    }
  }

  /** {@link AuthorityStore#follow}: the listener hears the space's commits once this returns. */
  public void follow(SpaceId spaceId) {
    CommitChannel current;
    synchronized (listening) {
      if (!followed.add(spaceId)) {
        return;
      }
      current = channel;
    }
    if (current != null) {
      current.follow(spaceId); // waits for the channel's thread, so not under the lock
    }
  }

  /** {@link AuthorityStore#unfollow}. */
  public void unfollow(SpaceId spaceId) {
    synchronized (listening) {
      if (followed.remove(spaceId) && channel != null) {
        channel.unfollow(spaceId);
      }
    }
  }

  /** Sends an empty notice on {@code channel} through a pooled connection; the listener's thread wakes for it. */
  private void wake(String channel) {
    try (Connection c = pool.getConnection(); Statement statement = c.createStatement()) {
      statement.execute("NOTIFY \"" + channel + '"');
      c.commit();
    } catch (SQLException e) {
      throw PgFaults.translate(e, database, "waking the listener");
    }
  }

  /** A connection of its own for LISTEN, outside the pool (it stays open for the store's life). */
  private Connection listenerConnection() {
    Properties properties = new Properties();
    settings.user().ifPresent(user -> properties.setProperty("user", user));
    settings.password().ifPresent(password -> properties.setProperty("password", password));
    properties.setProperty("connectTimeout", Long.toString(Math.max(1, settings.connectTimeoutMillis() / 1000)));
    properties.setProperty("socketTimeout", Long.toString(Math.max(10, 3 * CommitChannel.CHECK_MILLIS / 1000)));
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("ApplicationName", "feed-server listener");
    try {
      return DriverManager.getConnection(settings.url(), properties);
    } catch (SQLException e) {
      throw PgFaults.translate(e, database, "connecting to listen");
    }
  }

  @Override
  public void close() {
    closed = true;
    listen(null);
    pool.close();
  }

  /** The failure of a database that cannot be reached at all, naming it and the cause. */
  public static StorageFaultException unreachable(Path database, Throwable cause) {
    return new StorageFaultException(StorageFaultException.Kind.UNREACHABLE, database,
        "PostgreSQL: " + cause.getMessage(), cause);
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      // a connection that cannot roll back is broken; the pool drops it when it is closed
    }
  }
}
