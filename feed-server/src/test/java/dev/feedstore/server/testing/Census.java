package dev.feedstore.server.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every row of the authority's tables, read straight from the SQLite file (or the PostgreSQL
 * database) over a connection of its own (not through the store under test), so that a test can show that a request wrote nothing:
 * no space (and so no server token), feed, block or subscription, and no subscription's expiry
 * moved. Equal censuses mean equal contents. Block data is compared by length and hash.
 */
public record Census(Map<String, List<String>> tables) {
  private static final Map<String, String> QUERIES = Map.of(
      "spaces", "SELECT space_private_id, space_id, server_token FROM spaces ORDER BY 1",
      "feeds", "SELECT feed_private_id, space_private_id, feed_id, feed_namespace, block_count FROM feeds ORDER BY 1",
      "blocks", "SELECT block_private_id, space_private_id, feed_private_id, position, sequence, actor_id,"
          + " prev_sequence, prev_actor_id, timestamp, length(data), hex(substr(data, 1, 16)) FROM blocks ORDER BY 1",
      "subscriptions", "SELECT subscription_id, space_id, ttl_ms, expires_at, feed_ids, namespaces, durable, acked, name"
          + " FROM subscriptions ORDER BY 1");

  /** The same rows of a PostgreSQL store, whose blocks are keyed by space and position. */
  private static final Map<String, String> POSTGRES_QUERIES = Map.of(
      "spaces", "SELECT space_private_id, space_id, server_token FROM spaces ORDER BY 1",
      "feeds", "SELECT feed_private_id, space_private_id, feed_id, feed_namespace, block_count FROM feeds ORDER BY 1",
      "blocks", "SELECT space_private_id || '/' || position, space_private_id, feed_private_id, position, sequence, actor_id, prev_sequence,"
          + " prev_actor_id, timestamp, length(data), encode(substring(data from 1 for 16), 'hex') FROM blocks"
          + " ORDER BY 1, 3",
      "subscriptions", "SELECT subscription_id, space_id, ttl_ms, expires_at, feed_ids, namespaces, durable, acked, name"
          + " FROM subscriptions ORDER BY 1");

  /** Reads every table of the file at {@code db}. */
  public static Census of(Path db) {
    return read("jdbc:sqlite:" + db.toAbsolutePath(), QUERIES);
  }

  /** Reads every table of the PostgreSQL database at the JDBC URL {@code url}. */
  public static Census ofPostgres(String url) {
    return read(url, POSTGRES_QUERIES);
  }

  private static Census read(String url, Map<String, String> queries) {
    try (Connection connection = DriverManager.getConnection(url);
         Statement statement = connection.createStatement()) {
      Map<String, List<String>> tables = new LinkedHashMap<>();
      for (String table : List.of("spaces", "feeds", "blocks", "subscriptions")) {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(queries.get(table))) {
          int columns = result.getMetaData().getColumnCount();
          while (result.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns; i++) {
              row.append(i > 1 ? "|" : "").append(result.getString(i));
            }
            rows.add(row.toString());
          }
        }
        tables.put(table, rows);
      }
      return new Census(tables);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read " + url, e);
    }
  }

  /** How many rows {@code table} has. */
  public int rows(String table) {
    return tables.get(table).size();
  }

  /** The highest position of any block (the sweeps use one space), 0 when none is positioned. */
  public long maxPosition() {
    long max = 0;
    for (String row : tables.get("blocks")) {
      String position = row.split("\\|")[3];
      max = position.equals("null") ? max : Math.max(max, Long.parseLong(position));
    }
    return max;
  }

  /** What changed from {@code before} to this census, row by row; empty when nothing did. */
  public String changesSince(Census before) {
    StringBuilder out = new StringBuilder();
    tables.forEach((table, rows) -> {
      List<String> added = new ArrayList<>(rows);
      added.removeAll(before.tables.get(table));
      List<String> removed = new ArrayList<>(before.tables.get(table));
      removed.removeAll(rows);
      added.forEach(row -> out.append(table).append(" + ").append(row).append('\n'));
      removed.forEach(row -> out.append(table).append(" - ").append(row).append('\n'));
    });
    return out.toString();
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    tables.forEach((table, rows) -> out.append(table).append(": ").append(rows.size()).append(" rows; "));
    return out.toString();
  }
}
