package dev.feedstore.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;
import org.sqlite.SQLiteConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code feedctl backup}: a consistent copy of a feed store's SQLite file, taken with SQLite's
 * {@code VACUUM INTO} over a read-only connection, so it works while a server runs on the file (the
 * server keeps serving; WAL mode lets the copy read one snapshot while appends commit). Refuses a
 * file that is not a feed store and a target that exists.
 */
@Command(name = "backup", sortOptions = false, usageHelpWidth = 100,
    description = {"Copies a feed store's database file consistently, also while a server runs on it"
        + " (SQLite's VACUUM INTO, read-only). Run it on the server's machine; it does not talk to the server.",
        "Example: feedctl backup --db /var/lib/feed-server/feeds.db --to /backup/feeds-$(date +%%F).db"})
final class BackupCommand implements Callable<Integer> {
  /** {@code PRAGMA application_id} of a feed store: "FEED". */
  static final int FEED_STORE_APPLICATION_ID = 0x46454544;

  @Spec CommandSpec spec;

  @Option(names = "--db", required = true, paramLabel = "FILE", description = "The server's database file.")
  Path db;

  @Option(names = "--to", required = true, paramLabel = "FILE", description = "The copy to write; must not exist.")
  Path target;

  @Override
  public Integer call() throws java.io.IOException {
    if (!Files.isRegularFile(db)) {
      throw new CliException("--db " + db + " is not a file", FeedCtl.Exit.USAGE);
    }
    if (Files.exists(target)) {
      throw new CliException("--to " + target + " exists; give a new file (a backup never overwrites)",
          FeedCtl.Exit.USAGE);
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    config.setBusyTimeout(10_000);
    try (Connection connection = config.createConnection("jdbc:sqlite:" + db.toAbsolutePath())) {
      copy(connection);
    } catch (SQLException e) {
      throw new CliException("cannot back up " + db + ": " + e.getMessage(), FeedCtl.Exit.REFUSED);
    }
    spec.commandLine().getErr().println("backed up " + db + " to " + target + " (" + Files.size(target) + " bytes)");
    spec.commandLine().getErr().flush();
    return FeedCtl.Exit.OK;
  }

  private void copy(Connection connection) throws SQLException {
    int applicationId = applicationId(connection);
    if (applicationId != FEED_STORE_APPLICATION_ID) {
      throw new CliException("--db " + db + " is not a feed store (its application_id is 0x"
          + Integer.toHexString(applicationId) + ", a feed store's is 0x46454544)", FeedCtl.Exit.USAGE);
    }
    try (PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
      vacuum.setString(1, target.toAbsolutePath().toString());
      vacuum.execute();
    }
  }

  private static int applicationId(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet row = statement.executeQuery("PRAGMA application_id")) {
      return row.next() ? row.getInt(1) : 0;
    }
  }
}
