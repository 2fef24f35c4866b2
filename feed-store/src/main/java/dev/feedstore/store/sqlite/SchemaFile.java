package dev.feedstore.store.sqlite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

/**
 * Writes an empty store at the latest schema version into a new file, by the same migrations a
 * store's file goes through: the build runs it before it generates the schema's table and column
 * classes from that file, so the classes are the schema the migrations make, never one written by
 * hand. Not used at run time.
 */
public final class SchemaFile {
  private SchemaFile() {}

  /**
   * Writes the schema into {@code args[0]}, replacing a file there (and creating its directory).
   *
   * @throws Exception whatever keeps it from writing the file
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: SchemaFile FILE (the file to write the latest schema into)");
    }
    Path file = Path.of(args[0]).toAbsolutePath();
    Files.createDirectories(file.getParent());
    Files.deleteIfExists(file);
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      SchemaMigrator.builtIn().migrate(connection, file);
    }
  }
}
