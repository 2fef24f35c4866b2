package dev.feedstore.store;

import org.jooq.Param;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The named parameters the stores' statements take, one per meaning, so that a statement reads as
 * what it is given. Each stands at most once in a statement ({@link Rendered#of}). Stateless.
 */
public final class Params {
  public static final Param<Long> SPACE = DSL.param("space", SQLDataType.BIGINT);
  public static final Param<String> SPACE_ID = DSL.param("space_id", SQLDataType.CLOB);
  public static final Param<Long> FEED = DSL.param("feed", SQLDataType.BIGINT);
  public static final Param<String> FEED_ID = DSL.param("feed_id", SQLDataType.CLOB);
  public static final Param<String> NAMESPACE = DSL.param("namespace", SQLDataType.CLOB);
  public static final Param<Long> POSITION = DSL.param("position", SQLDataType.BIGINT);
  public static final Param<Long> CURSOR = DSL.param("cursor", SQLDataType.BIGINT);
  public static final Param<Long> BELOW = DSL.param("below", SQLDataType.BIGINT);
  public static final Param<Long> SEQUENCE = DSL.param("sequence", SQLDataType.BIGINT);
  public static final Param<String> ACTOR = DSL.param("actor", SQLDataType.CLOB);
  public static final Param<Long> CHAIN = DSL.param("chain", SQLDataType.BIGINT);
  public static final Param<Integer> CHECKSUM = DSL.param("checksum", SQLDataType.INTEGER);
  public static final Param<Long> COUNT = DSL.param("count", SQLDataType.BIGINT);
  public static final Param<Long> DELTA = DSL.param("delta", SQLDataType.BIGINT);
  public static final Param<Integer> LIMIT = DSL.param("limit", SQLDataType.INTEGER);
  public static final Param<Long> NOW = DSL.param("now", SQLDataType.BIGINT);
  public static final Param<Long> ID = DSL.param("id", SQLDataType.BIGINT);
  public static final Param<String> NAME = DSL.param("name", SQLDataType.CLOB);
  public static final Param<String> TEXT_ID = DSL.param("text_id", SQLDataType.CLOB);

  private Params() {}

  /** A parameter for one statement's own use, where no shared meaning fits. */
  public static Param<Long> number(String name) {
    return DSL.param(name, SQLDataType.BIGINT);
  }

  /** A text parameter for one statement's own use. */
  public static Param<String> text(String name) {
    return DSL.param(name, SQLDataType.CLOB);
  }
}
