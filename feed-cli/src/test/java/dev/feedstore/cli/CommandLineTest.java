package dev.feedstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Usage, bad input and an unreachable server: clear errors and the documented exit codes. */
class CommandLineTest {
  @Test
  void helpListsTheCommandsAndExitCodes() {
    Cli.Result help = Cli.run("--help");

    assertEquals(0, help.exit());
    for (String command : new String[] {"create", "append", "read", "list", "tail", "backup"}) {
      assertTrue(help.out().contains("\n  " + command + "  "), command + " in:\n" + help.out());
    }
    assertTrue(help.out().contains("3  the server could not be reached"), help.out());
  }

  @Test
  void noCommandIsAUsageErrorNamingEveryCommand() {
    Cli.Result result = Cli.run();

    assertEquals(FeedCtl.Exit.USAGE, result.exit());
    Matcher named = Pattern.compile("^feedctl: Missing a command: one of ([a-z, ]+) \\(feedctl help COMMAND explains"
        + " one\\)\n").matcher(result.err());
    assertTrue(named.find(), result.err());
    Set<String> registered = new TreeSet<>(Cli.commands());
    assertTrue(registered.containsAll(List.of("create", "compact", "retention")), registered.toString());
    assertEquals(registered, new TreeSet<>(List.of(named.group(1).split(", "))), result.err());
  }

  @Test
  void aBadIdIsRefusedBeforeAnythingIsSentNamingTheOptionAndTheRule() {
    Cli.Result result = Cli.run("read", "--space", "demo", "--feed", "not-a-ulid", "--server", "127.0.0.1:1");

    assertEquals(FeedCtl.Exit.USAGE, result.exit());
    assertEquals("feedctl: Invalid value for option '--feed' (FEED_ID): feedId must be a ULID: 26 characters of"
        + " Crockford base32 (0-9 and A-Z without I, L, O, U), first character 0-7, was 'not-a-ulid'\n"
        + "Try 'feedctl read --help' for its options.\n", result.err());
  }

  @Test
  void aBadServerAddressAndABadSpaceAreRefused() {
    Cli.Result server = Cli.run("list", "--space", "demo", "--server", "localhost");
    assertEquals(FeedCtl.Exit.USAGE, server.exit());
    assertTrue(server.err().contains("server must be HOST:PORT"), server.err());

    Cli.Result space = Cli.run("list", "--space", "no spaces");
    assertEquals(FeedCtl.Exit.USAGE, space.exit());
    assertTrue(space.err().contains("spaceId must be 1-128 characters of [A-Za-z0-9._:-], was 'no spaces'"), space.err());
  }

  @Test
  void aBadNumberIsRefusedNamingTheOptionTheRuleAndTheValue() {
    Cli.Result batch = Cli.run("append", "--space", "demo", "--feed", FeedId.generate().value(), "--batch", "0",
        "--server", "127.0.0.1:1", "x");
    assertEquals(FeedCtl.Exit.USAGE, batch.exit(), batch.toString());
    assertEquals("feedctl: --batch must be >= 1, was 0\n", batch.err());

    Cli.Result from = Cli.run("read", "--space", "demo", "--from", "-1", "--server", "127.0.0.1:1");
    assertEquals(FeedCtl.Exit.USAGE, from.exit(), from.toString());
    assertEquals("feedctl: --from must be >= 0, was -1\n", from.err());
  }

  @Test
  void scopeOptionsAreExclusive() {
    Cli.Result result = Cli.run("tail", "--space", "demo", "--feed", FeedId.generate().value(), "--namespace", "x");

    assertEquals(FeedCtl.Exit.USAGE, result.exit());
    assertTrue(result.err().contains("mutually exclusive"), result.err());
  }

  @Test
  void anUnreachableServerIsExitCode3WithTheReason() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli.Result result = Cli.run("list", "--space", "demo", "--server", "127.0.0.1:" + port);

    assertEquals(FeedCtl.Exit.UNREACHABLE, result.exit(), result.toString());
    assertTrue(result.err().startsWith("feedctl: UNAVAILABLE: "), result.err());
    assertTrue(result.err().contains("Connection refused"), result.err());
    assertTrue(result.err().contains("is a feed-server running at the address given by --server?"), result.err());
  }

  @Test
  void serverAddressesParse() {
    assertEquals(new ServerAddress("[::1]", 7070), ServerAddress.parse("[::1]:7070"));
    assertEquals(new ServerAddress("feeds.example", 443), ServerAddress.parse("feeds.example:443"));
    for (String bad : new String[] {":7070", "host:", "host:0", "host:70000", "::1:7070", "host:x"}) {
      assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> ServerAddress.parse(bad)).getMessage().contains("HOST:PORT"), bad);
    }
  }
}
