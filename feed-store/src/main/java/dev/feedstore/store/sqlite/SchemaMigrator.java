package dev.feedstore.store.sqlite;

import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.store.MigrationScripts;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;

/**
 * Brings a database file to the schema version of this code, or refuses it. The version lives in
 * {@code PRAGMA user_version}; {@code PRAGMA application_id} marks the file as a feed store. Each
 * migration runs in one transaction together with the version bump, so a crash leaves the file at
 * the old or the new version, never between.
 *
 * <p>The scripts live here, beside the schema classes generated from them: the build migrates an
 * empty file with this migrator ({@link SchemaFile}) and generates the table and column classes of
 * both stores from it.
 */
public final class SchemaMigrator {
  /** "FEED" in ASCII: marks a SQLite file as a feed store. */
  public static final int APPLICATION_ID = 0x46454544;

  /** One forward step of the schema. */
  public record Migration(int version, String script) {
    public Migration {
      Objects.requireNonNull(script, "script");
      if (version < 1) {
        throw new IllegalArgumentException("migration version must be >= 1, was " + version);
      }
    }
  }

  private final List<Migration> migrations;

  /** @param migrations the steps in version order: 1, 2, 3, ... */
  public SchemaMigrator(List<Migration> migrations) {
    for (int i = 0; i < migrations.size(); i++) {
      if (migrations.get(i).version() != i + 1) {
        throw new IllegalArgumentException("migrations must be numbered 1, 2, 3, ...; found "
            + migrations.get(i).version() + " at index " + i);
      }
    }
    this.migrations = List.copyOf(migrations);
  }

  /** The migrations this code ships with. */
  public static SchemaMigrator builtIn() {
    return new SchemaMigrator(List.of(
        new Migration(1, resource("V1__feed_store.sql")),
        new Migration(2, resource("V2__history_chain.sql")),
        new Migration(3, resource("V3__block_checksums.sql")),
        new Migration(4, resource("V4__derived_tokens.sql")),
        new Migration(5, resource("V5__space_replication.sql")),
        new Migration(6, resource("V6__position_counters.sql")),
        new Migration(7, resource("V7__subscriptions_by_space.sql")),
        new Migration(8, resource("V8__streams.sql")),
        new Migration(9, resource("V9__space_floor.sql")),
        new Migration(10, resource("V10__durable_subscriptions.sql")),
        new Migration(11, resource("V11__receive_time.sql")),
        new Migration(12, resource("V12__feed_removals.sql")),
        new Migration(13, resource("V13__stream_feeds.sql")),
        new Migration(14, resource("V14__removed_sequences.sql")),
        new Migration(15, resource("V15__unpositioned_blocks.sql"))));
  }

  /** The steps, in version order. */
  public List<Migration> migrations() {
    return migrations;
  }

  public int latestVersion() {
    return migrations.size();
  }

  /**
   * Checks the file behind {@code connection} and migrates it forward.
   *
   * @return the version the file had before
   * @throws IncompatibleStoreException if the file is newer than this code or not a feed store
   */
  public int migrate(Connection connection, Path file) throws SQLException {
    int version = check(connection, file);
    if (version < latestVersion()) {
      // Functions the scripts may call (written in Java: SQLite has no CRC32C).
      ChecksumFunction.register(connection);
    }
    for (Migration migration : migrations.subList(version, migrations.size())) {
      apply(connection, migration);
    }
    return version;
  }

  /**
   * Checks that the file behind {@code connection} is a feed store this code can use, or an empty
   * one, by reading its header and catalogue only: nothing is written, so a refused file is left
   * exactly as it was.
   *
   * @return the schema version of the file (0 for an empty one)
   * @throws IncompatibleStoreException if the file is newer than this code or not a feed store
   */
  public int check(Connection connection, Path file) throws SQLException {
    int applicationId = pragmaInt(connection, "application_id");
    int version = pragmaInt(connection, "user_version");
    if (applicationId != 0 && applicationId != APPLICATION_ID) {
      throw new IncompatibleStoreException("database file " + file + " is not a feed store (its SQLite"
          + " application_id is " + applicationId + ", a feed store has " + APPLICATION_ID
          + "); it was not changed");
    }
    if (applicationId == 0 && hasTables(connection)) {
      throw new IncompatibleStoreException("database file " + file + " already holds tables of another"
          + " application; a feed store needs an empty or new file; it was not changed");
    }
    if (version > latestVersion()) {
      throw new IncompatibleStoreException("database file " + file + " has schema version " + version
          + ", newer than this code supports (" + latestVersion() + "); open it with a newer"
          + " feedstore release; the file was not changed");
    }
    return version;
  }

  private static void apply(Connection connection, Migration migration) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      try {
        for (String sql : MigrationScripts.statements(migration.script())) {
          statement.execute(sql);
        }
        statement.execute("PRAGMA application_id = " + APPLICATION_ID);
        statement.execute("PRAGMA user_version = " + migration.version());
        statement.execute("COMMIT");
      } catch (SQLException | RuntimeException e) {
        statement.execute("ROLLBACK");
        throw e;
      }
    }
  }

  private static int pragmaInt(Connection connection, String pragma) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("PRAGMA " + pragma)) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  private static boolean hasTables(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
      return rs.next() && rs.getInt(1) > 0;
    }
  }

  private static String resource(String name) {
    return MigrationScripts.load(SchemaMigrator.class, "/dev/feedstore/store/sqlite/migrations/" + name);
  }
}
