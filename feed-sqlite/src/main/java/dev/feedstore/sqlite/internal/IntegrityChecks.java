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
 * SQLite's structural check of a file, bounded in time: {@code PRAGMA quick_check} runs on a
 * connection of its own, and {@link Statement#cancel} (which sqlite-jdbc turns into {@code
 * sqlite3_interrupt}) stops it when its time is up.
 */
final class IntegrityChecks {
  /** Opens the connection a check runs on; the check closes it. */
  interface Connector {
    Connection open() throws SQLException;
  }

  private static final int SQLITE_CORRUPT = 11;

  private IntegrityChecks() {}

  static QuickCheck quickCheck(Path file, Connector connector, Duration limit) {
    long start = System.nanoTime();
    try (Connection connection = connector.open(); Statement statement = connection.createStatement()) {
      Timeout timeout = new Timeout(statement);
      CompletableFuture.delayedExecutor(limit.toNanos(), TimeUnit.NANOSECONDS).execute(timeout::expire);
      List<String> rows = new ArrayList<>();
      SQLException failure = null;
      boolean expired;
      try (ResultSet rs = statement.executeQuery(SqliteDialect.quickCheck(QuickCheck.MAX_PROBLEMS))) {
        while (rs.next()) {
          rows.add(rs.getString(1));
        }
      } catch (SQLException e) {
        failure = e;
      } finally {
        expired = timeout.finish();
      }
      if (expired && failure != null) {
        return new QuickCheck(false, problems(rows), since(start));
      }
      if (failure != null && isCorruption(failure)) {
        // SQLite reports what it found, then gives up on a page it cannot read as a b-tree page at all.
        List<String> problems = new ArrayList<>(problems(rows));
        problems.add(failure.getMessage());
        return new QuickCheck(false, problems, since(start));
      }
      if (failure != null) {
        throw failure;
      }
      return new QuickCheck(true, problems(rows), since(start));
    } catch (SQLException e) {
      throw SqlErrors.translate(file, "checking the file (PRAGMA quick_check)", e);
    }
  }

  /** The rows that name a problem: not "ok", nor the line that names the schema they are in. */
  private static List<String> problems(List<String> rows) {
    return rows.stream().filter(row -> !row.equals("ok") && !row.startsWith("*** in database")).toList();
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
