package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactCommandTest {
  @TempDir Path dir;
  RestartableServer server;

  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
    String feed = Cli.run("create", "--server", server.address(), "--space", "demo", "b0").out().strip();
    for (int i = 1; i < 6; i++) {
      Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed, "b" + i);
    }
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void compactRemovesHistoryAndReadStartsAtTheFloor() {
    Cli.Result compact = Cli.run("compact", "--server", server.address(), "demo", "4");
    assertEquals(0, compact.exit(), compact.toString());
    assertEquals("removed 4 block(s); the floor of demo is 4\n", compact.err());

    Cli.Result read = Cli.run("read", "--server", server.address(), "--space", "demo", "--json");
    assertEquals(java.util.List.of(5L, 6L),
        JsonLines.parse(read.lines()).stream().map(m -> m.get("position")).toList());

    Cli.Result below = Cli.run("read", "--server", server.address(), "--space", "demo", "--from", "2");
    assertEquals(FeedCtl.Exit.REFUSED, below.exit(), below.toString());
    assertTrue(below.err().contains("FAILED_PRECONDITION") && below.err().contains("below the floor 4"), below.err());
  }

  @Test
  void retentionSetsTheSpacesOwnAndAppliesIt() {
    Cli.Result set = Cli.run("retention", "--server", server.address(), "demo", "--blocks", "2");
    assertEquals(0, set.exit(), set.toString());
    assertEquals("retention of demo: blocks 2, age-ms all, bytes all; its floor is 4\n", set.err());

    Cli.Result reset = Cli.run("retention", "--server", server.address(), "demo", "--server-default");
    assertEquals("retention of demo (the server's): blocks all, age-ms all, bytes all; its floor is 4\n", reset.err());

    Cli.Result bad = Cli.run("compact", "--server", server.address(), "demo", "0");
    assertEquals(FeedCtl.Exit.REFUSED, bad.exit(), bad.toString());
    assertTrue(bad.err().contains("up_to"), bad.err());
  }
}
