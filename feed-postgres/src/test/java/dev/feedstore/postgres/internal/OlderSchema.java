package dev.feedstore.postgres.internal;

import dev.feedstore.store.MigrationScripts;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Makes an empty database what code of an older schema version made: the built-in scripts up to that
 * version, and the version recorded, so that opening a store migrates it on from there. Stateless.
 */
final class OlderSchema {
  private OlderSchema() {}

  /** Runs the scripts of versions 1 to {@code version} on the database of {@code s}. */
  static void create(Statement s, int version) throws SQLException {
    for (String script : PgSchema.SCRIPTS.subList(0, version)) {
      for (String sql : MigrationScripts.statements(PgSchema.resource(script))) {
        s.execute(sql);
      }
    }
    s.execute("UPDATE feedstore_schema SET version = " + version);
  }
}
