package dev.feedstore.bench;

import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The limit of the append benchmark: the same rows inserted into the same schema (made by {@link
 * SqliteFeedStore#open}, so its indexes are the store's) with plain sqlite-jdbc, one prepared
 * statement, one batched transaction per request, and the connection settings the store uses
 * (WAL, {@code synchronous=FULL}, foreign keys, busy timeout, cache size), and its checkpoints: a
 * second connection checkpoints (PASSIVE) at most every 100 ms after commits, the writer's own
 * automatic checkpoint at 4000 pages. Not thread-safe.
 */
final class RawSqlite implements AutoCloseable {
  private final Connection connection;
  private final Connection checkpoints;
  private final java.util.concurrent.ScheduledExecutorService checkpointer =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
  private final java.util.concurrent.atomic.AtomicBoolean committed = new java.util.concurrent.atomic.AtomicBoolean();
  private final PreparedStatement insert;
  private final long space;
  private final long[] feedRows;
  private long position;

  RawSqlite(Path file, AppendWorkload workload) throws SQLException {
    SqliteFeedStore.open(file, SqliteSettings.DEFAULTS).close(); // the schema, as the store makes it
    connection = connect(file, SqliteSettings.DEFAULTS);
    checkpoints = connect(file, SqliteSettings.DEFAULTS);
    checkpointer.scheduleWithFixedDelay(() -> {
      if (committed.getAndSet(false)) {
        try (Statement statement = checkpoints.createStatement()) {
          statement.execute("PRAGMA wal_checkpoint(PASSIVE)");
        } catch (SQLException e) {
          // the writer's own threshold bounds the WAL
        }
      }
    }, 100, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
    try (Statement statement = connection.createStatement()) {
      statement.execute("PRAGMA wal_autocheckpoint = 4000");
      statement.execute("BEGIN IMMEDIATE");
      statement.execute("INSERT INTO spaces (space_id, server_token) VALUES ('" + AppendWorkload.SPACE + "', 'raw')");
      space = lastRowId(statement);
      feedRows = new long[workload.feeds().size()];
      for (int i = 0; i < feedRows.length; i++) {
        statement.execute("INSERT INTO feeds (space_private_id, feed_id) VALUES (" + space + ", '"
            + workload.feeds().get(i).value() + "')");
        feedRows[i] = lastRowId(statement);
      }
      statement.execute("COMMIT");
    }
    insert = connection.prepareStatement("INSERT INTO blocks (space_private_id, feed_private_id, position, sequence,"
        + " actor_id, prev_sequence, prev_actor_id, timestamp, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  }

  /** Inserts one batch in one transaction. */
  void insert(List<AppendWorkload.Row> rows, byte[] data) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      for (AppendWorkload.Row row : rows) {
        insert.setLong(1, space);
        insert.setLong(2, feedRows[row.feed()]);
        insert.setLong(3, ++position);
        insert.setLong(4, row.sequence());
        insert.setString(5, AppendWorkload.ACTOR);
        if (row.sequence() > 0) {
          insert.setLong(6, row.sequence() - 1);
          insert.setString(7, AppendWorkload.ACTOR);
        } else {
          insert.setNull(6, java.sql.Types.INTEGER);
          insert.setNull(7, java.sql.Types.VARCHAR);
        }
        insert.setLong(8, row.timestamp());
        insert.setBytes(9, data);
        insert.addBatch();
      }
      insert.executeBatch();
      statement.execute("COMMIT");
    }
    committed.set(true);
  }

  @Override
  public void close() throws SQLException {
    checkpointer.shutdownNow();
    try {
      checkpointer.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    checkpoints.close();
    insert.close();
    connection.close();
  }

  /** A connection with the settings every connection of a store has. */
  static Connection connect(Path file, SqliteSettings settings) throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), settings.toJdbcProperties());
  }

  private static long lastRowId(Statement statement) throws SQLException {
    try (var rs = statement.executeQuery("SELECT last_insert_rowid()")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
