package dev.feedstore.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prepared statements of one connection, kept for reuse: preparing a statement costs more than
 * running a small one, and the hot paths (appends, pulls, lookups by key or position) run the same
 * few statements over and over. At most {@value #MAX} are kept; the least recently used is closed
 * first. A store keeps one for each connection it keeps (SQLite), or one per transaction on a pooled
 * connection (PostgreSQL, whose driver keeps each text prepared on the server itself). Not
 * thread-safe: like its connection, it serves one transaction at a time.
 *
 * <p>After an error, sqlite-jdbc finalizes the native statement (for every result but {@code BUSY},
 * {@code LOCKED}, {@code CONSTRAINT} and {@code MISUSE}) while the Java object still says it is open;
 * reused, it fails with "statement is not executing" for ever. So a transaction that failed in SQL
 * {@link #discard}s them all, and they are prepared again when next asked for.
 */
public final class StatementCache implements AutoCloseable {
  private static final int MAX = 64;

  private final Connection connection;
  private final Map<String, PreparedStatement> cache = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
      if (size() <= MAX) {
        return false;
      }
      closeQuietly(eldest.getValue());
      return true;
    }
  };

  public StatementCache(Connection connection) {
    this.connection = connection;
  }

  /** The connection the statements are prepared on. */
  public Connection connection() {
    return connection;
  }

  /**
   * The prepared statement of {@code sql}, with no result set open.
   *
   * @throws SqlFailure if the database cannot prepare it
   */
  public PreparedStatement get(String sql) {
    PreparedStatement statement = cache.get(sql);
    if (statement == null) {
      try {
        statement = connection.prepareStatement(sql);
      } catch (SQLException e) {
        throw new SqlFailure("preparing " + sql, e);
      }
      cache.put(sql, statement);
    }
    return statement;
  }

  /** Closes every kept statement; each is prepared again when next asked for. */
  public void discard() {
    cache.values().forEach(StatementCache::closeQuietly);
    cache.clear();
  }

  @Override
  public void close() {
    discard();
  }

  private static void closeQuietly(PreparedStatement statement) {
    try {
      statement.close();
    } catch (SQLException ignored) {
      // The connection closes it anyway.
    }
  }
}
