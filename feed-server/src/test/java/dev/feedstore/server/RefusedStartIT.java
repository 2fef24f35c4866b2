package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.testing.ForeignDatabase;
import dev.feedstore.sqlite.testing.PageDamage;
import dev.feedstore.testing.ServerProcess;
import dev.feedstore.testing.TestCertificates;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar refuses, before it listens, a database or TLS files it could not serve with:
 * exit code 1 and one line that names the file, the problem and the fix, without a stack trace.
 */
class RefusedStartIT {
  @TempDir Path dir;
  ServerProcess server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aDatabaseWithADamagedPageIsRefused() throws Exception {
    PageDamage.damagedStore(dir.resolve("feeds.db"), 2_000);

    String output = refusal("feeds.db");

    assertTrue(output.contains("ERROR Main - cannot start: database file " + dir.toRealPath().resolve("feeds.db")
        + " is damaged: SQLite's quick_check found "), output);
    assertTrue(output.contains("restore the last backup"), output);
    assertTrue(output.contains("--quick-check-ms 0 skips this check"), output);
  }

  @Test
  void aDatabaseWhoseBlocksRootPageIsDamagedIsRefused() throws Exception {
    int root = PageDamage.storeWithDamagedRoot(dir.resolve("feeds.db"), 2_000);

    String output = refusal("feeds.db");

    assertTrue(output.contains("ERROR Main - cannot start: database file " + dir.toRealPath().resolve("feeds.db")
        + " is damaged: SQLite's quick_check found "), output);
    assertTrue(output.contains("page " + root + ": btreeInitPage() returns error code 11"), output);
    assertFalse(output.contains("quick_check ok"), output);
    assertFalse(output.contains("listening"), output);
  }

  @Test
  void quickCheckZeroSkipsTheCheckOfTheDatabase() throws Exception {
    PageDamage.damagedStore(dir.resolve("feeds.db"), 2_000);
    int port = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port, "--quick-check-ms", "0");
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .build();
    try {
      server.awaitServing(channel);
      assertTrue(server.output().contains("quick_check skipped (--quick-check-ms 0)"), server.output());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aDatabaseOfAnotherApplicationIsRefusedAndLeftByteIdentical() throws Exception {
    Path file = ForeignDatabase.create(dir.resolve("other-app.db"));
    byte[] before = Files.readAllBytes(file);

    String output = refusal("other-app.db");

    assertTrue(output.contains("cannot start: database file " + dir.toRealPath().resolve("other-app.db")
        + " already holds tables of another application"), output);
    ForeignDatabase.assertUntouched(file, before);
  }

  @Test
  void aDirectoryTheServerMayNotWriteInIsRefusedSayingSo() throws Exception {
    Path readOnly = Files.createDirectory(dir.resolve("read-only"));
    SqliteFeedStore.open(readOnly.resolve("feeds.db")).close();
    // The service user may write the file but not the directory, where SQLite keeps -wal and -shm.
    Files.setPosixFilePermissions(readOnly.resolve("feeds.db"), PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      server = ServerProcess.startUnprivileged(dir, "read-only/feeds.db", ServerProcess.freePort());
      assertEquals(1, server.awaitExit(), server.output());
      String existing = server.output();
      server = ServerProcess.startUnprivileged(dir, "read-only/new.db", ServerProcess.freePort());
      assertEquals(1, server.awaitExit(), server.output());
      String created = server.output().substring(existing.length());

      Path real = readOnly.toRealPath();
      assertTrue(existing.contains("cannot start: cannot open database file " + real.resolve("feeds.db") + ": the"
          + " directory " + real + " is not writable by user "), existing);
      assertTrue(existing.contains("SQLite creates feeds.db-wal and feeds.db-shm beside the database"), existing);
      assertTrue(created.contains("cannot start: cannot open database file " + real.resolve("new.db") + ": it does not"
          + " exist and cannot be created: the directory " + real + " is not writable by user "), created);
      assertFalse(existing.contains("\tat "), "no stack trace:\n" + existing);
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aTlsKeyOfAnotherCertificateIsRefusedBeforeListening() throws Exception {
    TestCertificates.Pem served = TestCertificates.selfSigned(Files.createDirectories(dir.resolve("served")));
    TestCertificates.Pem other = TestCertificates.selfSigned(Files.createDirectories(dir.resolve("other")));

    String output = refusal("feeds.db", "--tls-cert", served.certificate().toString(), "--tls-key",
        other.privateKey().toString());

    assertTrue(output.contains("cannot start: the TLS private key " + other.privateKey() + " does not belong to the"
        + " certificate in " + served.certificate()), output);
    assertFalse(output.contains("listening"), output);
  }

  /** Starts the jar on {@code db}, expects exit code 1 without a stack trace, and returns its output. */
  private String refusal(String db, String... flags) {
    server = ServerProcess.start(dir, db, ServerProcess.freePort(), flags);
    assertEquals(1, server.awaitExit(), server.output());
    String output = server.output();
    assertFalse(output.contains("\tat "), "no stack trace:\n" + output);
    return output;
  }
}
