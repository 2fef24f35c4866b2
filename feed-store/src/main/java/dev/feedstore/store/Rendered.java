package dev.feedstore.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Query;
import org.jooq.QueryPart;
import org.jooq.ResultQuery;
import org.jooq.Select;
import org.jooq.conf.ParamType;

/**
 * A statement rendered once, as the text its dialect runs with {@code ?} for each parameter, and
 * the order of its parameters and result columns: what the stores execute on their own prepared
 * statements, binding values directly and reading rows by column number (found from the result's
 * fields once, where a row is read often). Rendering happens when a
 * store's statements are made ({@link StoreQueries}), never per call.
 *
 * <p>Every parameter is a named {@link Param} that stands once in the statement, and the caller
 * names them in the order it binds them: {@link #of} checks that the rendered text takes them in
 * that order, so a statement whose rendering moved a parameter fails when it is made, not by
 * binding a value to the wrong place. Immutable.
 */
public final class Rendered {
  private final String sql;
  private final List<String> parameters;
  private final List<Field<?>> columns;

  private Rendered(String sql, List<String> parameters, List<Field<?>> columns) {
    this.sql = sql;
    this.parameters = parameters;
    this.columns = columns;
  }

  /**
   * Renders {@code query} (which must be made by a {@link Rendering} context) with indexed
   * parameters.
   *
   * @param order the query's parameters, in the order the caller binds them: each a {@link Param}, or
   *     a part of the query (a condition) that stands for the parameters it holds, in its order
   * @throws IllegalStateException if the rendered text takes other parameters, or in another order
   */
  public static Rendered of(Query query, QueryPart... order) {
    String sql = query.getSQL(ParamType.INDEXED);
    List<String> rendered = new ArrayList<>();
    for (Param<?> param : query.getParams().values()) {
      if (!param.isInline()) {
        rendered.add(param.getParamName());
      }
    }
    List<String> expected = new ArrayList<>();
    for (QueryPart part : order) {
      if (part instanceof Param<?> param) {
        expected.add(param.getParamName());
      } else {
        for (Param<?> param : query.configuration().dsl().extractParams(part).values()) {
          if (!param.isInline()) {
            expected.add(param.getParamName());
          }
        }
      }
    }
    if (!rendered.equals(expected) || marks(sql) != expected.size()) {
      throw new IllegalStateException("the statement takes its parameters as " + rendered + " (" + marks(sql)
          + " marks), not as " + expected + ": " + sql);
    }
    List<Field<?>> columns = query instanceof Select<?> select ? List.copyOf(select.getSelect())
        : query instanceof ResultQuery<?> result ? List.of(result.fields()) : List.of();
    return new Rendered(sql, List.copyOf(expected), columns);
  }

  /**
   * A statement a dialect writes as text itself, without parameters: one of its own, outside the
   * shared schema (the PostgreSQL schema's version, say).
   */
  public static Rendered text(String sql) {
    return new Rendered(sql, List.of(), List.of());
  }

  /** The text the dialect runs. */
  public String sql() {
    return sql;
  }

  /**
   * The number (from 1) of {@code field} among the columns of the statement's result.
   *
   * @throws IllegalArgumentException if the result has no such column
   */
  public int column(Field<?> field) {
    int index = columns.indexOf(field);
    if (index < 0) {
      throw new IllegalArgumentException("the statement reads no column " + field + ": " + sql);
    }
    return index + 1;
  }

  /** The whole number in column {@code field} of the current row (0 for NULL). */
  public long getLong(ResultSet rs, Field<Long> field) throws SQLException {
    return rs.getLong(column(field));
  }

  /** The whole number in column {@code field} of the current row, or null. */
  public Long getNullableLong(ResultSet rs, Field<Long> field) throws SQLException {
    return Sql.nullableLong(rs, column(field));
  }

  /** The text in column {@code field} of the current row, or null. */
  public String getString(ResultSet rs, Field<String> field) throws SQLException {
    return rs.getString(column(field));
  }

  /**
   * The number (from 1) of {@code param} among the statement's parameters.
   *
   * @throws IllegalArgumentException if the statement takes no such parameter
   */
  public int parameter(Param<?> param) {
    int index = parameters.indexOf(param.getParamName());
    if (index < 0) {
      throw new IllegalArgumentException("the statement takes no parameter " + param.getParamName() + ": " + sql);
    }
    return index + 1;
  }

  /** How many parameters the statement takes. */
  public int parameterCount() {
    return parameters.size();
  }

  @Override
  public String toString() {
    return sql;
  }

  /** How many parameter marks stand outside quoted text. */
  private static int marks(String sql) {
    int count = 0;
    boolean quoted = false;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (c == '?' && !quoted) {
        count++;
      }
    }
    return count;
  }
}
