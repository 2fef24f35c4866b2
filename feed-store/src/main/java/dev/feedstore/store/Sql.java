package dev.feedstore.store;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs {@link Rendered} statements on one transaction's cached prepared statements ({@link
 * StatementCache}), binding parameters directly and reading rows from the {@link ResultSet}: no
 * rendering and no jOOQ records on the way. Parameters are given in the statement's order as {@code
 * Long}, {@code Integer}, {@code Boolean}, {@code String}, {@code byte[]}, {@code String[]} (a text
 * array), {@code Long[]} (a bigint array) or null (bound as NULL). Failures are {@link SqlFailure}s.
 * Not thread-safe: it serves one transaction.
 */
public final class Sql {
  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface Row<T> {
    T map(ResultSet rs) throws SQLException;
  }

  private final StatementCache statements;

  public Sql(StatementCache statements) {
    this.statements = statements;
  }

  /** The prepared statement of {@code statement}, for a caller that binds its values itself. */
  public PreparedStatement prepared(Rendered statement) {
    return statements.get(statement.sql());
  }

  public <T> List<T> list(Rendered statement, Row<T> row, Object... parameters) {
    PreparedStatement prepared = prepared(statement);
    try {
      bind(prepared, parameters);
      List<T> result = new ArrayList<>();
      try (ResultSet rs = prepared.executeQuery()) {
        while (rs.next()) {
          result.add(row.map(rs));
        }
      }
      return result;
    } catch (SQLException e) {
      throw new SqlFailure("reading: " + statement.sql(), e);
    }
  }

  /**
   * Hands each row to {@code visitor} as it is read, without keeping them: for reads of many rows.
   * The visitor must not run statements on this transaction's prepared statement of {@code statement}.
   */
  public void forEach(Rendered statement, Visitor visitor, Object... parameters) {
    PreparedStatement prepared = prepared(statement);
    try {
      bind(prepared, parameters);
      try (ResultSet rs = prepared.executeQuery()) {
        while (rs.next()) {
          visitor.visit(rs);
        }
      }
    } catch (SQLException e) {
      throw new SqlFailure("reading: " + statement.sql(), e);
    }
  }

  /** Takes the current row of a result set. */
  @FunctionalInterface
  public interface Visitor {
    void visit(ResultSet rs) throws SQLException;
  }

  /** The first row, if there is one. */
  public <T> Optional<T> one(Rendered statement, Row<T> row, Object... parameters) {
    PreparedStatement prepared = prepared(statement);
    try {
      bind(prepared, parameters);
      try (ResultSet rs = prepared.executeQuery()) {
        return rs.next() ? Optional.ofNullable(row.map(rs)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new SqlFailure("reading: " + statement.sql(), e);
    }
  }

  /** The first column of the first row, or null when there is no row or it holds NULL. */
  public Long longValue(Rendered statement, Object... parameters) {
    return one(statement, Sql::firstLong, parameters).orElse(null);
  }

  /** The first column of the first row, or null when there is no row or it holds NULL. */
  public String stringValue(Rendered statement, Object... parameters) {
    return one(statement, rs -> rs.getString(1), parameters).orElse(null);
  }

  /** Runs a statement that returns no rows; returns how many rows it changed. */
  public int update(Rendered statement, Object... parameters) {
    PreparedStatement prepared = prepared(statement);
    try {
      bind(prepared, parameters);
      return prepared.executeUpdate();
    } catch (SQLException e) {
      throw new SqlFailure("writing: " + statement.sql(), e);
    }
  }

  /**
   * Runs a statement that returns no rows once for each of {@code rows} (its parameters), as one
   * batch (PostgreSQL's driver sends every row before it waits); returns how many rows each changed.
   */
  public int[] batch(Rendered statement, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return new int[0];
    }
    PreparedStatement prepared = prepared(statement);
    try {
      prepared.clearBatch();
      for (Object[] row : rows) {
        bind(prepared, row);
        prepared.addBatch();
      }
      return prepared.executeBatch();
    } catch (SQLException e) {
      throw new SqlFailure("writing: " + statement.sql(), e);
    }
  }

  /** The value of a column that holds a whole number or NULL (null then). */
  public static Long nullableLong(ResultSet rs, int column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  private static Long firstLong(ResultSet rs) throws SQLException {
    return nullableLong(rs, 1);
  }

  private static void bind(PreparedStatement statement, Object[] parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      Object value = parameters[i];
      int index = i + 1;
      if (value == null) {
        statement.setNull(index, Types.NULL);
      } else if (value instanceof Long l) {
        statement.setLong(index, l);
      } else if (value instanceof Integer n) {
        statement.setInt(index, n);
      } else if (value instanceof String text) {
        statement.setString(index, text);
      } else if (value instanceof Boolean b) {
        statement.setBoolean(index, b);
      } else if (value instanceof byte[] bytes) {
        statement.setBytes(index, bytes);
      } else if (value instanceof String[] texts) {
        Array array = statement.getConnection().createArrayOf("text", texts);
        statement.setArray(index, array);
      } else if (value instanceof Long[] numbers) {
        Array array = statement.getConnection().createArrayOf("bigint", numbers);
        statement.setArray(index, array);
      } else {
        throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
      }
    }
  }
}
