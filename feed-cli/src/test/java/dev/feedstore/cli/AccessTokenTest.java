package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.RestartableServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** feedctl {@code --token} against a server that requires access tokens. */
class AccessTokenTest {
  @TempDir Path dir;

  @Test
  void theTokenIsSentAndItsGrantDecides() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("w") + " write team\n" + AccessTokens.sha256("r") + " read team\n");
    try (RestartableServer server =
        RestartableServer.loopback(dir, builder -> builder.accessTokens(AccessTokens.read(tokens)))) {
      String address = server.address();
      Cli.Result created = Cli.run("create", "--server", address, "--token", "w", "--space", "team", "hi");
      assertEquals(0, created.exit(), created.toString());

      Cli.Result read = Cli.run("read", "--server", address, "--token", "r", "--space", "team");
      assertEquals(0, read.exit(), read.toString());
      assertTrue(read.out().contains("hi"), read.out());

      Cli.Result readerAppends = Cli.run("append", "--server", address, "--token", "r", "--space", "team",
          "--feed", created.out().strip(), "more");
      assertEquals(FeedCtl.Exit.REFUSED, readerAppends.exit(), readerAppends.toString());
      assertTrue(readerAppends.err().contains("PERMISSION_DENIED"), readerAppends.err());

      Cli.Result anonymous = Cli.run("list", "--server", address, "--space", "team");
      assertEquals(FeedCtl.Exit.REFUSED, anonymous.exit(), anonymous.toString());
      assertTrue(anonymous.err().contains("UNAUTHENTICATED"), anonymous.err());
    }
  }
}
