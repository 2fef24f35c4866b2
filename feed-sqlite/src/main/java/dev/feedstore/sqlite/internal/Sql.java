package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs SQL on a transaction's prepared statements, each prepared once per connection and kept
 * ({@link Statements}). Parameters are {@code Long}, {@code Integer}, {@code String} or null (bound
 * as NULL). Failures are {@link SqlFailure}s, which the store translates at the end of the
 * transaction. Stateless.
 */
final class Sql {
  private Sql() {}

  /** Maps the current row of a result set. */
  @FunctionalInterface
  interface Row<T> {
    T map(ResultSet rs) throws SQLException;
  }

  static <T> List<T> list(SqliteTransaction tx, String sql, Row<T> row, Object... parameters) {
    PreparedStatement statement = tx.statements.get(sql);
    try {
      bind(statement, parameters);
      List<T> result = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          result.add(row.map(rs));
        }
      }
      return result;
    } catch (SQLException e) {
      throw new SqlFailure("reading: " + sql, e);
    }
  }

  /** The first column of the first row, or null when there is no row or it holds NULL. */
  static Long longValue(SqliteTransaction tx, String sql, Object... parameters) {
    List<Long> values = list(tx, sql, rs -> {
      long value = rs.getLong(1);
      return rs.wasNull() ? null : value;
    }, parameters);
    return values.isEmpty() ? null : values.get(0);
  }

  static int update(SqliteTransaction tx, String sql, Object... parameters) {
    PreparedStatement statement = tx.statements.get(sql);
    try {
      bind(statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new SqlFailure("writing: " + sql, e);
    }
  }

  static void bind(PreparedStatement statement, Object[] parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      Object value = parameters[i];
      if (value == null) {
        statement.setNull(i + 1, Types.NULL);
      } else if (value instanceof Long l) {
        statement.setLong(i + 1, l);
      } else if (value instanceof Integer n) {
        statement.setInt(i + 1, n);
      } else if (value instanceof String text) {
        statement.setString(i + 1, text);
      } else {
        throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
      }
    }
  }

  /**
   * The feed ids as one JSON array, for {@code IN (SELECT value FROM json_each(?))}: any number of
   * them in one parameter and one statement text (feed ids need no escaping).
   */
  static String json(Collection<FeedId> ids) {
    return ids.stream().map(id -> "\"" + id.value() + "\"").collect(Collectors.joining(",", "[", "]"));
  }

  /** {@code ?, ?, ...}: {@code count} parameter marks. */
  static String marks(int count) {
    StringBuilder marks = new StringBuilder(count * 3);
    for (int i = 0; i < count; i++) {
      marks.append(i == 0 ? "?" : ", ?");
    }
    return marks.toString();
  }
}
