package dev.feedstore.postgres.internal;

import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.concat;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Rendering;
import dev.feedstore.store.Sql;
import dev.feedstore.store.SqlTransaction;
import dev.feedstore.store.StoreDialect;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * What the PostgreSQL store does in PostgreSQL's own way, in one place: for the shared views ({@link
 * StoreDialect}), row locks where writers of a space must wait for each other ({@code FOR NO KEY
 * UPDATE}), advisory locks of the transaction where what they wait for has no row yet, the commit
 * notice sent with each claim of positions ({@code pg_notify}, which {@link CommitChannel} hears in
 * every process), lists of values as one array parameter ({@code = ANY (?)}) and lists of ids as
 * {@code text[]}; every block positioned; feed ids of blocks joined, since nothing read is trusted
 * beyond its transaction; an append group in one call of the function the migrations install ({@link
 * PgAppend}). And the store's own statements: read-only transactions, the probe of
 * writes, the schema's version (its migrations are {@link PgSchema}'s). Thread-safe; one instance
 * per store, which signs its notices with the store's id.
 */
public final class PostgresDialect implements StoreDialect {
  /** Reads see one snapshot and write nothing. */
  static final String READ_ONLY = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";
  /** A real commit that no reader can tell from none: the schema's version rewritten with its own value. */
  static final Rendered PROBE = Rendered.text("UPDATE feedstore_schema SET version = version WHERE schema_id = 1");

  /** The advisory locks, each of its own kind of key. */
  private static final Map<LockKind, Rendered> LOCKS = locks();

  private final String instance;

  /** @param instance the id of the store instance, which its commit notices carry */
  PostgresDialect(String instance) {
    this.instance = instance;
  }

  private static Map<LockKind, Rendered> locks() {
    DSLContext sql = Rendering.of(SQLDialect.POSTGRES);
    Param<String> key = DSL.param("key", SQLDataType.CLOB);
    Map<LockKind, Rendered> locks = new EnumMap<>(LockKind.class);
    locks.put(LockKind.SUBSCRIPTIONS_OF_SPACE, lock(sql, key, 7));
    locks.put(LockKind.STREAM, lock(sql, key, 11));
    locks.put(LockKind.STREAMS_OF_SPACE, lock(sql, key, 13));
    return locks;
  }

  /** {@code pg_advisory_xact_lock} of a 64-bit hash of the key, seeded by its kind. */
  private static Rendered lock(DSLContext sql, Param<String> key, long kind) {
    return Rendered.of(sql.select(function("pg_advisory_xact_lock", SQLDataType.OTHER,
        function("hashtextextended", SQLDataType.BIGINT, key, inline(kind)))), key);
  }

  @Override
  public SQLDialect family() {
    return SQLDialect.POSTGRES;
  }

  @Override
  public boolean holdsUnpositionedBlocks() {
    return false;
  }

  @Override
  public boolean joinsFeedIds() {
    return true;
  }

  @Override
  public <R extends Record> Select<R> holding(SelectForUpdateStep<R> select) {
    return select.forNoKeyUpdate();
  }

  /**
   * {@code pg_notify} of the sender and the new highest position, on the space's own channel ({@link
   * #channelOf}): PostgreSQL delivers it to every session listening there when, and only if, the
   * transaction commits, in commit order; queued by the claim's own statement, it costs no round trip
   * of its own.
   */
  @Override
  public Field<?> commitNotice(Field<String> spaceId, Field<Long> highest, Param<String> sender) {
    return function("pg_notify", SQLDataType.OTHER, channelOf(spaceId), concat(sender, highest.cast(SQLDataType.CLOB)));
  }

  /**
   * The channel of a space's commit notices in SQL, as {@link CommitChannel#channelOf} makes it in
   * Java (the append function of schema version 12 makes it the same way).
   */
  static Field<String> channelOf(Field<String> spaceId) {
    return DSL.field("{0} || md5({1})", String.class, inline(CommitChannel.PREFIX), spaceId);
  }

  @Override
  public String commitSender(SpaceId spaceId) {
    return CommitChannel.payloadPrefix(instance, spaceId);
  }

  /** One round trip for the whole group ({@link PgAppend}). */
  @Override
  public List<SpaceAppend.Stored> append(SqlTransaction tx, List<SpaceAppend> appends) {
    return PgAppend.run(tx, appends, this);
  }

  @Override
  public Condition anyOf(Field<String> field, String name, int count) {
    return field.eq(any(DSL.param(name, SQLDataType.CLOB.array())));
  }

  @Override
  public int anyOfShape(int count) {
    return 1;
  }

  @Override
  public List<Object> anyOfValues(Collection<String> values) {
    return List.of((Object) values.toArray(String[]::new));
  }

  @Override
  public Object idList(Collection<String> values) {
    return values.toArray(String[]::new);
  }

  @Override
  public List<String> idList(ResultSet rs, int column) throws SQLException {
    Array array = rs.getArray(column);
    return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
  }

  @Override
  public boolean lock(Sql sql, LockKind kind, String key) {
    sql.list(LOCKS.get(kind), rs -> null, key);
    return true;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return PgFaults.isUniqueViolation(e);
  }

  /** PostgreSQL's text cannot hold the character NUL (it refuses the statement). */
  @Override
  public boolean canStore(String text) {
    return text.indexOf('\0') < 0;
  }
}
