package dev.feedstore.postgres.internal;

import com.zaxxer.hikari.HikariDataSource;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.postgres.PostgresSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;

/**
 * The transactions of {@link dev.feedstore.postgres.PostgresStore}: one pooled connection each,
 * committed when the work returns, rolled back when it throws, run again on a deadlock or a
 * serialization failure, failures translated by {@link PgFaults}. Thread-safe.
 */
public final class PgStore implements AutoCloseable {
  /** Runs of one write that met a deadlock or serialization failure, the first included. */
  private static final int ATTEMPTS = 5;
  private static final String READ_ONLY = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

  private final HikariDataSource pool;
  private final PostgresSettings settings;
  private final PgStoreState state;
  private final Object listening = new Object();
  /** Guarded by listening. */
  private CommitChannel channel;
  private volatile boolean closed;

  public PgStore(HikariDataSource pool, Path database, PostgresSettings settings) {
    this.pool = pool;
    this.settings = settings;
    this.state = new PgStoreState(database, UUID.randomUUID().toString());
  }

  public Path database() {
    return state.database();
  }

  /** Creates or migrates the schema; returns the version found. */
  public int migrate() {
    try (Connection c = pool.getConnection()) {
      return PgSchema.migrate(c, state.database());
    } catch (SQLException e) {
      throw PgFaults.translate(e, state.database(), "while preparing its schema");
    }
  }

  public <T> T run(boolean writable, AuthorityStore.Work<? super AuthorityTransaction, T> work) {
    if (closed) {
      throw new StoreException("the store of " + state.database() + " is closed");
    }
    for (int attempt = 1; ; attempt++) {
      Connection c;
      try {
        c = pool.getConnection();
      } catch (SQLException e) {
        throw PgFaults.translate(e, state.database(), "connecting");
      }
      try {
        try {
          if (!writable) {
            try (Statement statement = c.createStatement()) {
              statement.execute(READ_ONLY);
            }
          }
          PgTransaction tx = new PgTransaction(c, writable, state);
          T result = work.run(tx);
          tx.flush();
          c.commit();
          return result;
        } catch (SQLException | SqlFailure e) {
          rollbackQuietly(c);
          if (writable && attempt < ATTEMPTS && PgFaults.isRetryable(e)) {
            continue;
          }
          throw PgFaults.translate(e, state.database(), writable ? "writing" : "reading");
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
    run(true, tx -> Sql.update(((PgTransaction) tx).connection,
        "UPDATE feedstore_schema SET version = version WHERE schema_id = 1"));
  }

  public void listen(CommitListener listener) {
    synchronized (listening) {
      if (channel != null) {
        channel.close();
        channel = null;
      }
      if (listener != null && !closed) {
        channel = new CommitChannel(this::listenerConnection, state.instance(), listener);
      }
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
      throw PgFaults.translate(e, state.database(), "connecting to listen");
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
