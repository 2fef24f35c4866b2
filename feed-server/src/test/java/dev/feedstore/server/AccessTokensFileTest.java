package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Namespace;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.testing.CapturedErr;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
  void aFourthFieldLimitsTheGrantToNamespacesAndALineWithoutItStaysSpaceWide() throws Exception {
    Path file = tokens(AccessTokens.sha256("t") + " write team,ops namespaces=chat,notes\n"
        + AccessTokens.sha256("t") + " read audit\n"
        + AccessTokens.sha256("u") + " write team\n");

    List<AccessTokens.Grant> t = AccessTokens.read(file).grantsFor("t").orElseThrow();
    AccessTokens.Grant u = AccessTokens.read(file).grantsFor("u").orElseThrow().get(0);

    assertEquals(2, t.size(), "a token listed on two lines holds both grants");
    assertEquals(Set.of(Namespace.of("chat"), Namespace.of("notes")), t.get(0).namespaces());
    assertTrue(t.get(0).mayWrite("ops", Optional.of(Namespace.of("notes"))));
    assertFalse(t.get(0).mayRead("team", Optional.of(Namespace.of("other"))));
    assertFalse(t.get(0).mayRead("team", Optional.empty()), "a feed without a namespace needs a space-wide grant");
    assertFalse(t.get(0).spaceWide("team"));
    assertTrue(t.get(1).spaceWide("audit"));
    assertTrue(u.spaceWide("team") && u.mayWrite("team", Optional.empty()), "a line of three fields keeps its meaning");
  }

  @Test
  void aMalformedNamespaceGrantIsRefusedNamingTheFileLineAndRule() throws Exception {
    String hash = AccessTokens.sha256("t");
    Map<String, String> refused = new LinkedHashMap<>();
    refused.put(hash + " read team chat", "the fourth field, if any, must be 'namespaces=NAMESPACE[,NAMESPACE...]'"
        + " (the namespaces the grant is limited to), was 'chat'");
    refused.put(hash + " read team namespaces=", "an empty namespace name in '' (two commas in a row, or one at an"
        + " end)");
    refused.put(hash + " read team namespaces=chat,chat", "namespace 'chat' is listed twice in 'chat,chat'");
    refused.put(hash + " read team namespaces=chat,a/b", "namespace must be 1-128 characters of [A-Za-z0-9._:-],"
        + " was 'a/b'");
    refused.put(hash + " admin team namespaces=chat", "an admin grant is space-wide (Compact and SetRetention remove"
        + " the history of the whole space), so it lists no namespaces; grant the namespaces with read or write");
    refused.put(hash + " read team namespaces=chat notes", "expected 'SHA256-HEX read|write|admin SPACES"
        + " [namespaces=NAMESPACES]', got 5 fields");
    for (Map.Entry<String, String> line : refused.entrySet()) {
      Path file = tokens("# a comment first\n" + line.getKey() + "\n");

      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AccessTokens.read(file));

      assertEquals(file + " line 2: " + line.getValue(), e.getMessage());
    }
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
