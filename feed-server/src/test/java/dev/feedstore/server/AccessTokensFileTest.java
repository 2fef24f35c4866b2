package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.testing.CapturedErr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The access tokens file as an operator writes it: mistakes are named by file and line, loose permissions warned of. */
class AccessTokensFileTest {
  @TempDir Path dir;

  @Test
  void aSpaceListedTwiceOnALineIsRefusedNamingTheFileLineAndSpace() throws Exception {
    Path file = tokens("# team twice\n" + AccessTokens.sha256("t") + " write team,ops,team\n");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessTokens.read(file));

    assertEquals(file + " line 2: space 'team' is listed twice in 'team,ops,team'", e.getMessage());
  }

  @Test
  void anEmptySpaceNameIsRefusedNamingTheFileAndLine() throws Exception {
    Path file = tokens(AccessTokens.sha256("t") + " read team,,ops\n");

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessTokens.read(file));

    assertEquals(file + " line 1: an empty space name in 'team,,ops' (two commas in a row, or one at an end)",
        e.getMessage());
  }

  @Test
  void aFileOthersMayWriteGetsAWarningThatSaysHowToFixIt() throws Exception {
    Path file = tokens(AccessTokens.sha256("t") + " read *\n");

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertEquals(Optional.empty(), AccessTokens.permissionWarning(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals(Optional.empty(), AccessTokens.permissionWarning(file), "others may read hashes, not grant themselves");

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
    assertEquals(Optional.of("the access tokens file " + file + " is writable by its group (rw-rw-r--): whoever can"
        + " write it can grant themselves access; make it writable by its owner only: chmod go-w " + file),
        AccessTokens.permissionWarning(file));
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertTrue(AccessTokens.permissionWarning(file).orElseThrow().contains("is writable by everyone (rw-rw-rw-)"));
  }

  @Test
  void theServerWarnsOfALooseTokensFileWhenItStarts() throws Exception {
    Path file = tokens(AccessTokens.sha256("t") + " read *\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

    String log;
    try (CapturedErr err = new CapturedErr()) {
      // The database path is a directory, so the start stops right after the tokens are read.
      assertEquals(1, Main.run("--access-tokens", file.toString(), "--db", dir.toString(), "--port", "0"));
      log = err.text();
    }

    assertTrue(log.contains("WARN Main - the access tokens file " + file + " is writable by everyone"), log);
  }

  private Path tokens(String text) throws Exception {
    Path file = dir.resolve("tokens");
    Files.writeString(file, text);
    return file;
  }
}
