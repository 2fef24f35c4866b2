package dev.feedstore.sqlite.internal;

import dev.feedstore.sqlite.QuickCheck;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.sqlite.SQLiteException;

/**
 * SQLite's structural check of a file, bounded in time: {@code PRAGMA quick_check(TABLE)} for each
 * table in turn, {@code blocks} (by far the largest) last, on a connection of its own; {@link
 * Statement#cancel} (which sqlite-jdbc turns into {@code sqlite3_interrupt}) stops the table under
 * way when the time is up, and the tables not checked whole are reported as such. The check stops
 * at the first table found damaged. Stateless.
 */
final class IntegrityChecks {
  /** Opens the connection a check runs on; the check closes it. */
  interface Connector {
    Connection open() throws SQLException;
  }

  private static final int SQLITE_CORRUPT = 11;
  /** The table checked last: it holds nearly all of a store's pages. */
  private static final String LARGEST = "blocks";

  private IntegrityChecks() {}

  static QuickCheck quickCheck(Path file, Connector connector, Duration limit) {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    try (Connection connection = connector.open()) {
      List<String> tables = tables(connection);
      List<String> checked = new ArrayList<>();
      List<String> problems = new ArrayList<>();
      for (String table : tables) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !problems.isEmpty()) {
          break;
        }
        if (!checkTable(connection, table, left, problems)) {
          break;
        }
        checked.add(table);
      }
      List<String> unchecked = tables.subList(checked.size(), tables.size());
      return new QuickCheck(checked, unchecked, problems.subList(0, Math.min(problems.size(),
          QuickCheck.MAX_PROBLEMS)), since(start));
    } catch (SQLException e) {
      throw SqlErrors.translate(file, "checking the file (PRAGMA quick_check)", e);
    }
  }

  /** The file's tables, SQLite's own schema table first and {@value #LARGEST} last. */
  private static List<String> tables(Connection connection) throws SQLException {
    List<String> tables = new ArrayList<>();
    tables.add("sqlite_schema");
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT name FROM sqlite_schema WHERE type = 'table'"
            + " ORDER BY name = '" + LARGEST + "', name")) {
      while (rs.next()) {
        tables.add(rs.getString(1));
      }
    }
    return tables;
  }

  /**
   * Checks {@code table} with its indexes for at most {@code nanos}, adding what it finds to {@code
   * problems}; returns whether it checked the table whole (false when its time ran out, or SQLite
   * gave up on a page it could not read at all).
   */
  private static boolean checkTable(Connection connection, String table, long nanos, List<String> problems)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      Timeout timeout = new Timeout(statement);
      CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(timeout::expire);
      List<String> rows = new ArrayList<>();
      SQLException failure = null;
      boolean expired;
      try (ResultSet rs = statement.executeQuery(SqliteDialect.quickCheck(table))) {
        while (rs.next()) {
          rows.add(rs.getString(1));
        }
      } catch (SQLException e) {
        failure = e;
      } finally {
        expired = timeout.finish();
      }
      problems.addAll(problems(rows));
      if (expired && failure != null) {
        return false;
      }
      if (failure != null && isCorruption(failure)) {
        // SQLite reports what it found, then gives up on a page it cannot read as a b-tree page at all.
        problems.add(table + ": " + failure.getMessage());
        return false;
      }
      if (failure != null) {
        throw failure;
      }
      return true;
    }
  }

  /**
   * The lines that name a problem. SQLite answers "ok", or rows of problems; the problems of the
   * b-trees come as one row of lines, the first of which names the schema they are in.
   */
  private static List<String> problems(List<String> rows) {
    return rows.stream()
        .flatMap(row -> row.lines())
        .filter(line -> !line.isBlank() && !line.equals("ok") && !line.startsWith("*** in database"))
        .toList();
  }

  private static boolean isCorruption(SQLException e) {
    return e instanceof SQLiteException sqlite && (sqlite.getResultCode().code & 0xff) == SQLITE_CORRUPT;
  }

  private static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /**
   * Cancels the statement when its time is up, unless the check finished first: once finished, the
   * statement is closed, and interrupting a closed connection's database would touch freed memory.
   */
  private static final class Timeout {
    private final Statement statement;
    /** Guarded by this. */
    private boolean finished;
    /** Guarded by this. */
    private boolean expired;

    Timeout(Statement statement) {
      this.statement = statement;
    }

    synchronized void expire() {
      if (finished) {
        return;
      }
      expired = true;
      try {
        statement.cancel();
      } catch (SQLException e) {
        // The statement ended on its own meanwhile; the check reports what it read.
      }
    }

    /** Marks the check finished; returns whether its time had run out (its result is then partial). */
    synchronized boolean finish() {
      finished = true;
      return expired;
    }
  }
}
