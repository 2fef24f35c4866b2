package dev.feedstore.postgres.internal;

import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.store.MigrationScripts;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Brings a database to the schema version of this code, or refuses it: the same rules as the SQLite
 * store's migrator. The version lives in {@code feedstore_schema}, whose presence marks the database
 * (its current schema) as a feed store; a schema holding other tables is another application's and is
 * refused, as is a newer version, and neither is changed. Each step runs in one transaction with its
 * version bump (PostgreSQL's DDL is transactional), under an advisory lock, so that several
 * processes starting at once migrate once: the others wait and find the work done.
 */
public final class PgSchema {
  /** "FEED" in ASCII: the advisory lock the migration holds. */
  private static final long LOCK = 0x46454544L;
  /** The scripts of versions 1, 2, 3, ... in order (tests build older databases from them). */
  static final List<String> SCRIPTS = List.of("V1__authority_store.sql", "V2__space_floor.sql",
      "V3__durable_subscriptions.sql", "V4__receive_time.sql", "V5__stream_catalog.sql",
      "V6__feed_removals.sql", "V7__stream_feeds.sql", "V8__removed_sequences.sql", "V9__append_function.sql",
      "V10__chain_receive_time.sql", "V11__append_all_new.sql", "V12__space_channels.sql",
      "V13__one_feed_by_key.sql", "V14__hot_rows_fillfactor.sql");

  private PgSchema() {}

  public static int latestVersion() {
    return SCRIPTS.size();
  }

  /**
   * Checks the database behind {@code connection} (auto-commit off) and migrates it forward.
   *
   * @return the version it had before
   * @throws IncompatibleStoreException if it is newer than this code or holds another application's tables
   */
  public static int migrate(Connection connection, Path database) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SELECT pg_advisory_xact_lock(" + LOCK + ")");
      int version = check(connection, database);
      for (int step = version; step < SCRIPTS.size(); step++) {
        for (String sql : MigrationScripts.statements(resource(SCRIPTS.get(step)))) {
          statement.execute(sql);
        }
        statement.execute("UPDATE feedstore_schema SET version = " + (step + 1));
      }
      connection.commit();
      return version;
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }

  /** The version of the database (0 for an empty one), read without writing. */
  static int check(Connection connection, Path database) throws SQLException {
    boolean marked = count(connection, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        + " AND tablename = 'feedstore_schema'") > 0;
    if (!marked) {
      long tables = count(connection, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()");
      if (tables > 0) {
        throw new IncompatibleStoreException("the database " + database + " already holds " + tables + " tables of"
            + " another application in its schema; a feed store needs an empty database (or schema); it was not"
            + " changed");
      }
      return 0;
    }
    int version = (int) count(connection, "SELECT version FROM feedstore_schema WHERE schema_id = 1");
    if (version > latestVersion()) {
      throw new IncompatibleStoreException("the database " + database + " has schema version " + version
          + ", newer than this code supports (" + latestVersion() + "); serve it with a newer feedstore release;"
          + " it was not changed");
    }
    return version;
  }

  private static long count(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** The text of the migration script {@code name}. */
  static String resource(String name) {
    return MigrationScripts.load(PgSchema.class, "/dev/feedstore/postgres/migrations/" + name);
  }
}
