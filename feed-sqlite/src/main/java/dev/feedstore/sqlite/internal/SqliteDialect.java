package dev.feedstore.sqlite.internal;

import dev.feedstore.core.SpaceId;
import dev.feedstore.store.Sql;
import dev.feedstore.store.StoreDialect;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Select;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * What the SQLite store does in SQLite's own way, in one place: for the shared views ({@link
 * StoreDialect}), no row locks and no advisory locks (one write transaction at a time holds the whole
 * file, {@code BEGIN IMMEDIATE}), no commit notices (no other process serves the file), lists of
 * values as one parameter each ({@code IN (?, ?, ...)}, whose plans SQLite knows best), lists of ids
 * as JSON text; blocks without a position (a replica's); feed ids of blocks from the feed rows kept in
 * memory. And the store's own statements: the transaction's frame, the connection's PRAGMAs, copies
 * with {@code VACUUM INTO}, {@code quick_check}. The schema's migrations are {@link
 * dev.feedstore.store.sqlite.SchemaMigrator}'s, beside the schema classes generated from them.
 * Stateless and thread-safe.
 */
public final class SqliteDialect implements StoreDialect {
  public static final SqliteDialect INSTANCE = new SqliteDialect();

  /** Begins a write: takes the file's write lock now, so the transaction never has to upgrade later. */
  static final String BEGIN_WRITE = "BEGIN IMMEDIATE";
  static final String BEGIN_READ = "BEGIN";
  static final String COMMIT = "COMMIT";
  static final String ROLLBACK = "ROLLBACK";
  static final String SYNCHRONOUS_NORMAL = "PRAGMA synchronous = NORMAL";
  static final String SYNCHRONOUS_FULL = "PRAGMA synchronous = FULL";
  static final String JOURNAL_WAL = "PRAGMA journal_mode = WAL";
  /** Copies the whole WAL into the main file and starts it again (at close: a closed store is one file). */
  static final String CHECKPOINT_TRUNCATE = "PRAGMA wal_checkpoint(TRUNCATE)";
  /** Copies committed pages into the main file without blocking the writer or readers. */
  static final String CHECKPOINT_PASSIVE = "PRAGMA wal_checkpoint(PASSIVE)";
  static final String USER_VERSION = "PRAGMA user_version";
  static final String PAGE_SIZE = "PRAGMA page_size";
  static final String PAGE_COUNT = "PRAGMA page_count";

  private SqliteDialect() {}

  /** Sets the WAL size at which the writer checkpoints by itself. */
  static String autoCheckpoint(int pages) {
    return "PRAGMA wal_autocheckpoint = " + pages;
  }

  /** Writes the schema version (a write of the file's first page). */
  static String setUserVersion(long version) {
    return "PRAGMA user_version = " + version;
  }

  /** Writes a consistent copy of the database to {@code target}. */
  static String vacuumInto(Path target) {
    return "VACUUM INTO '" + target.toAbsolutePath().toString().replace("'", "''") + "'";
  }

  /** SQLite's structural check of one table of the file, with its indexes. */
  static String quickCheck(String table) {
    return "PRAGMA quick_check('" + table.replace("'", "''") + "')";
  }

  @Override
  public SQLDialect family() {
    return SQLDialect.SQLITE;
  }

  @Override
  public boolean holdsUnpositionedBlocks() {
    return true;
  }

  @Override
  public boolean joinsFeedIds() {
    return false;
  }

  @Override
  public <R extends Record> Select<R> holding(SelectForUpdateStep<R> select) {
    return select;
  }

  @Override
  public Field<?> commitNotice(Field<String> spaceId, Field<Long> highest, Param<String> sender) {
    return null;
  }

  @Override
  public String commitSender(SpaceId spaceId) {
    throw new UnsupportedOperationException("a SQLite store sends no commit notices");
  }

  @Override
  public Condition anyOf(Field<String> field, String name, int count) {
    List<Param<String>> values = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      values.add(DSL.param(name + i, SQLDataType.CLOB));
    }
    return field.in(values);
  }

  @Override
  public int anyOfShape(int count) {
    return count;
  }

  @Override
  public List<Object> anyOfValues(Collection<String> values) {
    return new ArrayList<>(values);
  }

  @Override
  public Object idList(Collection<String> values) {
    return JsonStrings.encode(values);
  }

  @Override
  public List<String> idList(ResultSet rs, int column) throws SQLException {
    return JsonStrings.decode(rs.getString(column));
  }

  @Override
  public boolean lock(Sql sql, LockKind kind, String key) {
    return false;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return e instanceof SQLiteException sqlite && (sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
        || sqlite.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY);
  }

  @Override
  public boolean canStore(String text) {
    return true;
  }
}
