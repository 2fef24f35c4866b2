package dev.feedstore.store;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StepwiseAppend;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;

/**
 * What one store's database does its own way, for the store views every store shares ({@link
 * SqlTransaction}): everything else about a statement is written once, with the generated schema
 * classes, and jOOQ renders it for {@link #family()}. Each store has one implementation, which also
 * holds the store's other dialect-only SQL (its transactions, its maintenance, its migrations).
 *
 * <p>The methods that shape statements ({@link #holding}, {@link #commitNotice}, {@link #anyOf}) are
 * used once, when the dialect's statements are rendered ({@link StoreQueries#of}), and must give the
 * same statement whichever instance of the implementation is asked. Implementations are
 * thread-safe.
 */
public interface StoreDialect {
  /** The SQL dialect jOOQ renders this store's statements in. */
  SQLDialect family();

  /**
   * Whether the store keeps blocks without a position (a replica's); if not, a block offered without
   * one is refused before it reaches the database.
   */
  boolean holdsUnpositionedBlocks();

  /**
   * Whether block reads take each block's feed id from a join with {@code feeds}; if not, from the
   * feed rows the store keeps in memory between transactions ({@link IdCache}), which is cheaper
   * where the store may trust them.
   */
  boolean joinsFeedIds();

  /**
   * {@code select}, holding the rows it reads until the transaction ends where the database needs a
   * row lock for writers of one space to wait for each other; a database that runs one write at a
   * time needs none.
   */
  <R extends Record> Select<R> holding(SelectForUpdateStep<R> select);

  /**
   * What the claim of positions returns besides the new highest position, so that its transaction
   * tells other processes of the commit (a notification queued with the claim, sent if and only if
   * the transaction commits), or null when no other process needs telling.
   *
   * @param spaceId the space's id, whose commits are told to those that follow it
   * @param highest the space's highest position after the claim
   * @param sender the parameter {@link #commitSender} fills
   */
  Field<?> commitNotice(Field<String> spaceId, Field<Long> highest, Param<String> sender);

  /** The value of the sender parameter of {@link #commitNotice} for a claim in {@code spaceId}. */
  String commitSender(SpaceId spaceId);

  /**
   * The condition that {@code field} is one of {@code count} values, as parameters named after
   * {@code name}; {@link #anyOfValues} gives what to bind for them.
   */
  Condition anyOf(Field<String> field, String name, int count);

  /**
   * The shape of {@link #anyOf} for {@code count} values: conditions for counts of the same shape
   * render the same text (one for any count, where the values go as one array).
   */
  int anyOfShape(int count);

  /** The parameters of {@link #anyOf} for {@code values}, in order. */
  List<Object> anyOfValues(Collection<String> values);

  /** The value to bind for a column that holds a list of ids (a subscription's feeds or namespaces). */
  Object idList(Collection<String> values);

  /** The list of ids in column {@code column} of the current row (see {@link #idList}). */
  List<String> idList(ResultSet rs, int column) throws SQLException;

  /**
   * Waits for, then holds until the transaction ends, the lock of {@code kind} named {@code key}, so
   * that writers of the same thing in other processes wait for each other. A database that runs one
   * write at a time takes none.
   *
   * @return whether a lock was taken (so what was read before it may be stale)
   */
  boolean lock(Sql sql, LockKind kind, String key);

  /** True when {@code e} reports a broken unique constraint. */
  boolean isUniqueViolation(SQLException e);

  /**
   * Whether the database can hold {@code text} as a text value (PostgreSQL's text cannot hold the
   * character NUL); a value it cannot hold is never stored, so looking it up finds nothing.
   */
  boolean canStore(String text);

  /**
   * {@link dev.feedstore.core.store.AuthorityTransaction#append} in {@code tx}: step by step through
   * its views where a statement costs no round trip (the default), in one call where the database is
   * across a network.
   */
  default List<SpaceAppend.Stored> append(SqlTransaction tx, List<SpaceAppend> appends) {
    return StepwiseAppend.run(tx, appends);
  }

  /** What a {@link #lock} serializes. */
  enum LockKind {
    /** The writes of one Durable Stream (its record and producers), by space and name. */
    STREAM,
    /** The creation of streams in one space, whose count is limited. */
    STREAMS_OF_SPACE,
    /** The creation of subscriptions in one space, whose count is limited. */
    SUBSCRIPTIONS_OF_SPACE
  }
}
