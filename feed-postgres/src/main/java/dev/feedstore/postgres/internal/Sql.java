package dev.feedstore.postgres.internal;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs PostgreSQL's own SQL on a transaction's connection. Parameters are {@code Long}, {@code
 * Integer}, {@code String}, {@code byte[]}, {@code String[]} (a {@code text[]}), {@code Long[]} (a
 * {@code bigint[]}) or null. The driver
 * keeps each statement text prepared on the server after a few uses (its own cache, per connection),
 * so statements are not cached here. Failures are {@link SqlFailure}s. Stateless.
 */
final class Sql {
  private Sql() {}

  /** Maps the current row of a result set. */
  @FunctionalInterface
  interface Row<T> {
    T map(ResultSet rs) throws SQLException;
  }

  static <T> List<T> list(Connection connection, String sql, Row<T> row, Object... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(connection, statement, parameters);
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
  static Long longValue(Connection connection, String sql, Object... parameters) {
    List<Long> values = list(connection, sql, rs -> {
      long value = rs.getLong(1);
      return rs.wasNull() ? null : value;
    }, parameters);
    return values.isEmpty() ? null : values.get(0);
  }

  static int update(Connection connection, String sql, Object... parameters) {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      bind(connection, statement, parameters);
      return statement.executeUpdate();
    } catch (SQLException e) {
      throw new SqlFailure("writing: " + sql, e);
    }
  }

  static void bind(Connection connection, PreparedStatement statement, Object[] parameters) throws SQLException {
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
      } else if (value instanceof byte[] bytes) {
        statement.setBytes(i + 1, bytes);
      } else if (value instanceof String[] texts) {
        Array array = connection.createArrayOf("text", texts);
        statement.setArray(i + 1, array);
      } else if (value instanceof Long[] numbers) {
        Array array = connection.createArrayOf("bigint", numbers);
        statement.setArray(i + 1, array);
      } else {
        throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
      }
    }
  }
}
