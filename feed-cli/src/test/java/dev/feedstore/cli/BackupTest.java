package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupTest {
  private static final SpaceId DEMO = SpaceId.of("demo");

  @TempDir Path dir;

  @Test
  void backupCopiesTheStoreWhileTheServerRunsAndTheCopyOpensWithTheSameToken() {
    try (RestartableServer server = RestartableServer.loopback(dir)) {
      String feed = Cli.run("create", "--server", server.address(), "--space", "demo", "one").out().strip();
      Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed, "two", "three");
      Path copy = dir.resolve("copy.db");

      Cli.Result backup = Cli.run("backup", "--db", server.file().toString(), "--to", copy.toString());

      assertEquals(0, backup.exit(), backup.toString());
      assertTrue(backup.err().startsWith("backed up " + server.file() + " to " + copy), backup.err());
      Cli.Result stillServing = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed, "four");
      assertEquals(0, stillServing.exit(), stillServing.toString());
      try (SqliteFeedStore restored = SqliteFeedStore.open(copy)) {
        assertEquals(3, restored.read(tx -> tx.blocks().after(DEMO, Scope.WHOLE_SPACE, Position.NONE, 10)).size(),
            "the copy holds what was committed when it was taken");
        Optional<ServerToken> original = server.store().read(tx -> tx.serverTokens().find(DEMO));
        Optional<ServerToken> copied = restored.read(tx -> tx.serverTokens().find(DEMO));
        assertTrue(original.isPresent());
        assertEquals(original, copied, "a restore is a rollback, not a swap");
      }
    }
  }

  @Test
  void backupNeverOverwrites() throws Exception {
    try (RestartableServer server = RestartableServer.loopback(dir)) {
      Path existing = Files.writeString(dir.resolve("existing.db"), "keep me");

      Cli.Result refused = Cli.run("backup", "--db", server.file().toString(), "--to", existing.toString());

      assertEquals(FeedCtl.Exit.USAGE, refused.exit(), refused.toString());
      assertTrue(refused.err().contains("--to " + existing + " exists"), refused.err());
      assertEquals("keep me", Files.readString(existing));
    }
  }

  @Test
  void backupRefusesAFileThatIsNotAFeedStore() throws Exception {
    Path other = Files.writeString(dir.resolve("notes.txt"), "not a database, just text that is long enough");

    Cli.Result refused = Cli.run("backup", "--db", other.toString(), "--to", dir.resolve("copy.db").toString());

    assertEquals(FeedCtl.Exit.REFUSED, refused.exit(), refused.toString());
    assertTrue(refused.err().startsWith("feedctl: cannot back up " + other + ": "), refused.err());
    assertTrue(!refused.err().contains("\tat "), "no stack trace: " + refused.err());
  }
}
