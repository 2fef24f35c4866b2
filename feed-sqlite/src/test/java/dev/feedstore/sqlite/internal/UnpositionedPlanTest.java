package dev.feedstore.sqlite.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.store.sqlite.SchemaMigrator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica's reads of unpositioned blocks (a feed's last, a feed's, and the push's candidates in
 * a space or a scope), as SQLite plans them on a file of the current schema: through the index of
 * those blocks, in key order, never a sort of them all (which made every local append, and every
 * pushed batch, cost a sort of the whole offline backlog).
 */
class UnpositionedPlanTest {
  @TempDir Path dir;

  @Test
  void unpositionedBlocksAreReadInKeyOrderThroughTheirOwnIndex() throws Exception {
    Path file = dir.resolve("replica.db");
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      SchemaMigrator.builtIn().migrate(connection, file);
      for (Map.Entry<String, String> statement : SqliteReplicaBlockLog.unpositionedStatements().entrySet()) {
        List<String> lines = plan(connection, statement.getValue());
        String plan = String.join("\n", lines);
        assertTrue(plan.contains("blocks_feed_unpositioned"), statement.getKey() + ":\n" + plan);
        if (statement.getKey().startsWith("push")) {
          // A push reads its candidates in key order and stops at its limit; only the rows it took
          // (at most the limit) are put in order again once joined back to their blocks.
          lines = lines.subList(0, lines.size() - 1);
        }
        assertFalse(String.join("\n", lines).contains("TEMP B-TREE"), statement.getKey() + " sorts:\n" + plan);
      }
    }
  }

  private static List<String> plan(Connection connection, String sql) throws Exception {
    List<String> lines = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
      for (int i = 1; i <= statement.getParameterMetaData().getParameterCount(); i++) {
        statement.setLong(i, 1);
      }
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          lines.add(rows.getString("detail"));
        }
      }
    }
    return lines;
  }
}
