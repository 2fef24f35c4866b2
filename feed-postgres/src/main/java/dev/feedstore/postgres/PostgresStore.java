package dev.feedstore.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.postgres.internal.PgStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The position authority's store on PostgreSQL, which several server processes share: each one
 * opens its own {@code PostgresStore} on the same database. Positions come from each space's counter
 * row, claimed by the append's transaction ({@code UPDATE spaces SET max_position = max_position + n
 * ... RETURNING}), whose row lock serializes the appends of a space across processes; the commit
 * tells every other process ({@code NOTIFY}), and {@link #listen} passes that on. Nothing read from
 * the database is kept beyond its transaction but the token secret, which never changes.
 *
 * <p>Reads run in {@code REPEATABLE READ, READ ONLY} transactions (one snapshot), writes in {@code
 * READ COMMITTED}; a write that meets a deadlock or a serialization failure is run again, up to a
 * few times, so work passed to {@link #write} must not act outside its transaction. A lost or
 * refused connection fails the call with a {@link dev.feedstore.core.store.StorageFaultException} of
 * kind {@code UNREACHABLE}; the store recovers by itself when the database is back.
 *
 * <p>Thread-safe. Owns its connection pool and the listening connection; {@link #close} releases
 * them.
 */
public final class PostgresStore implements AuthorityStore<AuthorityTransaction> {
  private final PgStore store;
  private final PostgresSettings settings;
  private final int previousVersion;

  private PostgresStore(PgStore store, PostgresSettings settings, int previousVersion) {
    this.store = store;
    this.settings = settings;
    this.previousVersion = previousVersion;
  }

  /**
   * Connects, and creates or migrates the schema (once, whichever of several processes starting
   * together gets there first).
   *
   * @throws dev.feedstore.core.store.StorageFaultException naming the database and the cause if it
   *     cannot be reached (refused, unknown host, wrong password) within the connect timeout
   * @throws dev.feedstore.core.store.IncompatibleStoreException if it holds another application's
   *     tables, or a newer schema; it is left unchanged
   */
  public static PostgresStore open(PostgresSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    settings.user().ifPresent(config::setUsername);
    settings.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(settings.poolSize());
    config.setMinimumIdle(Math.min(2, settings.poolSize()));
    config.setAutoCommit(false);
    config.setConnectionTimeout(settings.connectTimeoutMillis());
    config.setInitializationFailTimeout(settings.connectTimeoutMillis());
    config.setPoolName("feed-postgres");
    // A connection whose server vanished answers nothing: give up on it rather than hold a call for ever.
    config.addDataSourceProperty("connectTimeout", Long.toString(Math.max(1, settings.connectTimeoutMillis() / 1000)));
    config.addDataSourceProperty("tcpKeepAlive", "true");
    config.addDataSourceProperty("ApplicationName", "feed-server");
    Path database = databasePath(settings);
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (HikariPool.PoolInitializationException e) {
      throw PgStore.unreachable(database, e.getCause() == null ? e : e.getCause());
    }
    try {
      PgStore store = new PgStore(pool, database, settings);
      return new PostgresStore(store, settings, store.migrate());
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /** The database as messages name it: host, port and database, without the user or parameters. */
  public static Path databasePath(PostgresSettings settings) {
    String name = settings.database();
    return Path.of(name.startsWith("postgresql://") ? name.substring("postgresql://".length()) : name);
  }

  /** The database's name in messages (host, port and database). */
  public Path database() {
    return store.database();
  }

  /** The settings this store connects with. */
  public PostgresSettings settings() {
    return settings;
  }

  /** The schema version the database had when this store opened it (0: it was empty). */
  public int previousVersion() {
    return previousVersion;
  }

  @Override
  public <T> T read(Work<? super AuthorityTransaction, T> work) {
    return store.run(false, work);
  }

  @Override
  public <T> T write(Work<? super AuthorityTransaction, T> work) {
    return store.run(true, work);
  }

  /**
   * One round trip: the append function's call alone, in auto-commit, so that the statement's
   * commit (with its fsync and {@code NOTIFY}) is the group's; a group it refuses stored nothing.
   */
  @Override
  public Optional<List<SpaceAppend.Stored>> appendAllNew(List<SpaceAppend> appends, long feedsPerSpace) {
    return store.appendAllNew(appends, feedsPerSpace);
  }

  /** Rewrites the schema's version with its own value: a real commit, which no reader can tell from none. */
  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  /**
   * Tells {@code listener} of the commits other processes (other {@code PostgresStore}s on the
   * database) make from now on, on a thread of this store with a connection of its own; null stops.
   */
  @Override
  public void listen(CommitListener listener) {
    store.listen(listener);
  }

  /** Listens on the space's own channel, on the listening connection, before returning (a round trip or two). */
  @Override
  public void follow(SpaceId spaceId) {
    store.follow(spaceId);
  }

  @Override
  public void unfollow(SpaceId spaceId) {
    store.unfollow(spaceId);
  }

  @Override
  public void close() {
    store.close();
  }

  @Override
  public String toString() {
    return "PostgresStore[" + database() + "]";
  }
}
