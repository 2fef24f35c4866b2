package dev.feedstore.postgres.testing;

import dev.feedstore.postgres.PostgresSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests, started from the binaries Maven fetched (no installation, no
 * Docker), on a free loopback port. {@link #shared()} is one server per test JVM, stopped when the
 * JVM exits; each test asks it for a {@link #newDatabase() fresh database}. {@link #start(Path, int)}
 * runs one on a data directory the test owns, for tests that stop, copy and restore it.
 *
 * <p>Thread-safe.
 */
public final class EmbeddedDatabase implements AutoCloseable {
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static EmbeddedDatabase shared;

  private final EmbeddedPostgres postgres;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** The server of this JVM, started on first use. */
  public static synchronized EmbeddedDatabase shared() {
    if (shared == null) {
      try {
        shared = new EmbeddedDatabase(EmbeddedPostgres.builder().start());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
      }
      EmbeddedDatabase started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "embedded-postgres-stop"));
    }
    return shared;
  }

  /**
   * A server on {@code dataDirectory} (initialized if empty, kept as it is otherwise) and {@code port}
   * (0 for a free one); the caller closes it.
   */
  public static EmbeddedDatabase start(Path dataDirectory, int port) {
    try {
      // A loaded machine can take more than the library's 10 s to start a server on an existing directory.
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false).setPGStartupWait(java.time.Duration.ofSeconds(60))
          .setOutputRedirector(ProcessBuilder.Redirect.appendTo(dataDirectory.resolveSibling(
              dataDirectory.getFileName() + ".log").toFile()));
      if (port > 0) {
        builder.setPort(port);
      }
      return new EmbeddedDatabase(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL on " + dataDirectory, e);
    }
  }

  public int port() {
    return postgres.getPort();
  }

  /** A new, empty database of this server. */
  public String newDatabase() {
    String name = "feeds_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = DriverManager.getConnection(url("postgres")); Statement statement = c.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return url(name);
  }

  /** The JDBC URL of a database of this server, as its superuser (trusted: no password). */
  public String url(String database) {
    return "jdbc:postgresql://localhost:" + port() + "/" + database + "?user=postgres";
  }

  /**
   * Copies the data directory of a stopped server, permissions included (PostgreSQL refuses a
   * directory others may read): a backup, and with {@link #deleteData} first, a restore.
   */
  public static void copyData(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
          Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(file));
        } else {
          Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
    }
  }

  /** Deletes the data directory of a stopped server. */
  public static void deleteData(Path data) {
    try (Stream<Path> files = Files.walk(data)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + data, e);
    }
  }

  /** Settings for a store on {@code url}, with a small pool as tests need. */
  public static PostgresSettings settings(String url) {
    return PostgresSettings.of(url).withPoolSize(8);
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
