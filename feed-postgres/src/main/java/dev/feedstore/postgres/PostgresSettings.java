package dev.feedstore.postgres;

import dev.feedstore.core.InvalidValueException;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link PostgresStore} reaches its database: the JDBC URL ({@code
 * jdbc:postgresql://HOST[:PORT]/DATABASE}, with the user in it or given apart), the password (never
 * part of a command line: the runnable server reads it from the environment or a file), and how many
 * connections the store's pool holds. Immutable.
 *
 * @param url the JDBC URL, starting with {@code jdbc:postgresql:}
 * @param user the user, unless the URL names it
 * @param password the password, unless the server needs none (a trusted local connection)
 * @param poolSize the most connections the pool holds, one per transaction running at once
 * @param connectTimeoutMillis how long a transaction waits for a connection before it fails with
 *     {@link dev.feedstore.core.store.StorageFaultException.Kind#UNREACHABLE}
 */
public record PostgresSettings(String url, Optional<String> user, Optional<String> password, int poolSize,
    long connectTimeoutMillis) {
  /** Connections in the pool when not told otherwise: enough for the server's RPC threads. */
  public static final int DEFAULT_POOL_SIZE = 16;
  /** A pool of fewer cannot run a write beside a read. */
  public static final int MIN_POOL_SIZE = 2;
  /** The most connections a pool may hold. */
  public static final int MAX_POOL_SIZE = 1000;
  /** Waiting longer for a connection would hold a client's call for longer than it helps. */
  public static final long DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
  private static final String PREFIX = "jdbc:postgresql:";

  /** Checks each value against its rule, naming it. */
  public PostgresSettings {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
    if (!url.startsWith(PREFIX)) {
      throw new InvalidValueException("postgres", "must be a PostgreSQL JDBC URL, jdbc:postgresql://HOST[:PORT]/DATABASE"
          + " (the user may follow as ?user=NAME; never put the password in it)", url);
    }
    if (url.contains("password=")) {
      throw new InvalidValueException("postgres", "must not hold the password (a command line is visible to every"
          + " user of the machine): give it in the environment (PGPASSWORD) or a file (--postgres-password-file)",
          url.replaceAll("password=[^&]*", "password=***"));
    }
    if (poolSize < MIN_POOL_SIZE || poolSize > MAX_POOL_SIZE) {
      throw new InvalidValueException("postgres-pool-size", "must be between " + MIN_POOL_SIZE + " and "
          + MAX_POOL_SIZE, Integer.toString(poolSize));
    }
    if (connectTimeoutMillis < 250) {
      throw new InvalidValueException("connectTimeoutMillis", "must be >= 250 (the pool's shortest wait)",
          Long.toString(connectTimeoutMillis));
    }
  }

  /** The database at {@code url}, with the default pool and no user or password apart from the URL. */
  public static PostgresSettings of(String url) {
    return new PostgresSettings(url, Optional.empty(), Optional.empty(), DEFAULT_POOL_SIZE, DEFAULT_CONNECT_TIMEOUT_MS);
  }

  /** These settings with {@code newUser} as {@link #user}. */
  public PostgresSettings withUser(Optional<String> newUser) {
    return new PostgresSettings(url, newUser, password, poolSize, connectTimeoutMillis);
  }

  /** These settings with {@code newPassword} as {@link #password}. */
  public PostgresSettings withPassword(Optional<String> newPassword) {
    return new PostgresSettings(url, user, newPassword, poolSize, connectTimeoutMillis);
  }

  /** These settings with {@code newPoolSize} as {@link #poolSize}. */
  public PostgresSettings withPoolSize(int newPoolSize) {
    return new PostgresSettings(url, user, password, newPoolSize, connectTimeoutMillis);
  }

  /** The URL without its query (parameters, the user among them): how logs and messages name the database. */
  public String database() {
    int query = url.indexOf('?');
    return (query < 0 ? url : url.substring(0, query)).substring("jdbc:".length());
  }

  @Override
  public String toString() {
    return "PostgresSettings[" + database() + ", pool " + poolSize + "]";
  }
}
