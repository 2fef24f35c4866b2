package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TailTest {
  @TempDir Path dir;
  RestartableServer server;
  String feed;

  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
    feed = Cli.run("create", "--server", server.address(), "--space", "demo", "--namespace", "notes", "old").out().strip();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void tailStartsFromNowAndPrintsBlocksAsTheyCommit() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--count", "2");
    tail.awaitErr("-- caught up");

    append("new 1", "new 2");

    Cli.Result result = tail.await();
    assertEquals(0, result.exit(), result.toString());
    assertEquals(2, result.lines().size(), result.toString());
    assertTrue(result.lines().get(0).endsWith("  new 1"), result.out());
    assertTrue(result.lines().get(1).endsWith("  new 2"), result.out());
    assertTrue(result.err().startsWith("tailing space demo after position 1 on " + server.address()), result.err());
  }

  @Test
  void tailFromZeroPrintsTheHistoryThenCaughtUpThenLiveBlocksAsJson() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--from", "0", "--count", "2", "--json");
    tail.awaitOut("\"type\":\"caught_up\"");

    append("live");

    List<Map<String, Object>> events = JsonLines.parse(tail.await().lines());
    assertEquals(List.of("block", "caught_up", "block"), events.stream().map(e -> e.get("type")).toList());
    assertEquals("old", events.get(0).get("data"));
    assertEquals(1L, events.get(1).get("max_position"));
    assertEquals("live", events.get(2).get("data"));
    assertEquals("notes", events.get(2).get("namespace"));
  }

  @Test
  void tailAndReadSinceATimeStartWithTheBlocksReceivedFromThenOnAndRefuseABadTime() throws Exception {
    append("a");
    append("b", "c");
    List<Map<String, Object>> stored = JsonLines.parse(
        Cli.run("read", "--server", server.address(), "--space", "demo", "--json").lines());
    assertEquals(List.of("old", "a", "b", "c"), stored.stream().map(b -> b.get("data")).toList());
    long since = ((Number) stored.get(2).get("received_at")).longValue();
    List<Object> expected = stored.stream()
        .filter(b -> ((Number) b.get("received_at")).longValue() >= since).map(b -> b.get("data")).toList();
    assertTrue(expected.containsAll(List.of("b", "c")), expected.toString());

    Cli.Result result = Cli.run("tail", "--server", server.address(), "--space", "demo", "--since",
        java.time.Instant.ofEpochMilli(since).toString(), "--count", String.valueOf(expected.size()), "--json");
    assertEquals(0, result.exit(), result.toString());
    assertEquals(expected, data(blocks(result)), "the blocks received at or after the time, in position order");
    assertTrue(result.err().startsWith("tailing space demo from " + java.time.Instant.ofEpochMilli(since)),
        result.err());

    Cli.Result read = Cli.run("read", "--server", server.address(), "--space", "demo", "--since", String.valueOf(since),
        "--json");
    assertEquals(0, read.exit(), read.toString());
    assertEquals(expected, JsonLines.parse(read.lines()).stream().map(b -> b.get("data")).toList(),
        "read --since: the same blocks, then it exits");

    Cli.Result millis = Cli.run("tail", "--server", server.address(), "--space", "demo", "--since", "0",
        "--count", "4", "--json");
    assertEquals(List.of("old", "a", "b", "c"), data(blocks(millis)), "Unix milliseconds; 0 is the whole history");

    Cli.Result bad = Cli.run("tail", "--server", server.address(), "--space", "demo", "--since", "yesterday");
    assertEquals(2, bad.exit(), bad.toString());
    assertTrue(bad.err().contains("was 'yesterday'"), bad.err());
    Cli.Result both = Cli.run("tail", "--server", server.address(), "--space", "demo", "--since", "0", "--from", "1");
    assertEquals(2, both.exit(), both.toString());
    assertTrue(both.err().contains("--since and --from"), both.err());
    Cli.Result readBoth = Cli.run("read", "--server", server.address(), "--space", "demo", "--since", "0", "--from", "0");
    assertEquals(2, readBoth.exit(), readBoth.toString());
  }

  @Test
  void aDurableTailResumesAfterWhatItAcknowledgedAndTheListShowsItsLag() throws Exception {
    Cli.Result first = Cli.run("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--durable", "worker", "--count", "1", "--json");
    assertEquals(0, first.exit(), first.toString());
    assertEquals(List.of("old"), data(blocks(first)));
    assertTrue(first.err().startsWith("created durable subscription 'worker' ("), first.err());
    append("a", "b", "c");

    Cli.Result second = Cli.run("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--durable", "worker", "--count", "2", "--json");
    assertEquals(0, second.exit(), second.toString());
    assertEquals(List.of("a", "b"), data(blocks(second)), "after what the first run acknowledged, each block once");
    assertTrue(second.err().startsWith("resuming durable subscription 'worker' ("), second.err());
    assertTrue(second.err().contains(" after position 1 on "), second.err());

    Cli.Result list = Cli.run("subscriptions", "demo", "--server", server.address(), "--json");
    assertEquals(0, list.exit(), list.toString());
    List<Map<String, Object>> subscriptions = JsonLines.parse(list.lines());
    assertEquals(1, subscriptions.size(), list.toString());
    assertEquals("worker", subscriptions.get(0).get("name"));
    assertEquals(3L, subscriptions.get(0).get("acked"));
    assertEquals(1L, subscriptions.get(0).get("lag"));
    assertEquals(false, subscriptions.get(0).get("expired"));
    Cli.Result table = Cli.run("subscriptions", "demo", "--server", server.address());
    assertTrue(table.out().startsWith("SUBSCRIPTION"), table.toString());
    assertTrue(table.lines().get(1).contains("worker"), table.toString());
    assertTrue(table.err().contains("1 durable subscription(s); the space's highest position is 4"), table.err());
  }

  @Test
  void aDurableTailNeedsAScopeAndNoCursorAndSendsNothingOtherwise() {
    Cli.Result noScope = Cli.run("tail", "--server", server.address(), "--space", "demo", "--durable", "w");
    Cli.Result withFrom = Cli.run("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--durable", "w", "--from", "0");
    Cli.Result ackWithoutDurable = Cli.run("tail", "--server", server.address(), "--space", "demo",
        "--ack-within-ms", "1000");
    Cli.Result badName = Cli.run("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--durable", "a\tb", "--count", "1");

    assertEquals(FeedCtl.Exit.USAGE, noScope.exit(), noScope.toString());
    assertTrue(noScope.err().contains("--durable needs a scope"), noScope.err());
    assertEquals(FeedCtl.Exit.USAGE, withFrom.exit(), withFrom.toString());
    assertTrue(withFrom.err().contains("--from cannot be given with --durable"), withFrom.err());
    assertEquals(FeedCtl.Exit.USAGE, ackWithoutDurable.exit(), ackWithoutDurable.toString());
    assertEquals(FeedCtl.Exit.REFUSED, badName.exit(), badName.toString());
    assertTrue(badName.err().contains("INVALID_ARGUMENT: name must be 1-128 printable ASCII characters"), badName.err());
    Cli.Result list = Cli.run("subscriptions", "demo", "--server", server.address(), "--json");
    assertEquals(List.of(), list.lines(), "nothing was created");
  }

  @Test
  void aDurableTailWithReconnectResumesAfterARestartFromWhatItAcknowledged() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "--durable", "worker", "--reconnect", "--count", "3", "--json");
    tail.awaitOut("\"data\":\"old\"");
    tail.awaitOut("\"type\":\"caught_up\"");

    restartAndAwaitEachBlockOnce(tail);
    Map<String, Object> subscription = JsonLines.parse(
        Cli.run("subscriptions", "demo", "--server", server.address(), "--json").lines()).get(0);
    assertEquals(3L, subscription.get("acked"));
  }

  @Test
  void withoutReconnectAServerShutdownEndsADurableTailWithUnavailableAndExitCode3() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--feed", feed,
        "--durable", "worker");
    tail.awaitErr("-- caught up");

    server.stop();

    Cli.Result result = tail.await();
    assertEquals(FeedCtl.Exit.UNREACHABLE, result.exit(), result.toString());
    assertTrue(result.err().contains("feedctl: UNAVAILABLE: the server is shutting down"), result.err());
  }

  @Test
  void aServerShutdownEndsTheTailWithUnavailableAndExitCode3() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--feed", feed);
    tail.awaitErr("-- caught up");

    server.stop();

    Cli.Result result = tail.await();
    assertEquals(FeedCtl.Exit.UNREACHABLE, result.exit(), result.toString());
    assertTrue(result.err().contains("feedctl: UNAVAILABLE: the server is shutting down"), result.err());
    assertTrue(!result.err().contains("is a feed-server running"), "no hint about a missing server: " + result.err());
  }

  @Test
  void withReconnectTheTailWaitsForARestartedServerAndResumesAfterTheLastPrintedBlock() throws Exception {
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--reconnect",
        "--from", "0", "--count", "3", "--json");
    tail.awaitOut("\"data\":\"old\"");

    restartAndAwaitEachBlockOnce(tail);
  }

  /**
   * Restarts the server under a tail that printed the first block and reconnects, appends two blocks
   * after the restart, and checks that the tail ends printing the three, each once.
   */
  private void restartAndAwaitEachBlockOnce(Cli.Background tail) throws Exception {
    server.stop();
    tail.awaitErr("reconnecting to resume after position 1");
    server.start();
    append("after the restart 1", "after the restart 2");

    Cli.Result result = tail.await();
    assertEquals(0, result.exit(), result.toString());
    List<Map<String, Object>> blocks = blocks(result);
    assertEquals(List.of("old", "after the restart 1", "after the restart 2"), data(blocks));
    assertEquals(List.of(1L, 2L, 3L), blocks.stream().map(b -> b.get("position")).toList(), "each block once");
  }

  @Test
  void withReconnectATailFollowsAServerRestoredFromABackupFromItsHighestPosition() throws Exception {
    Path backup = dir.resolve("backup.db");
    server.store().backupTo(backup);
    Cli.Background tail = Cli.start("tail", "--server", server.address(), "--space", "demo", "--reconnect",
        "--from", "0", "--count", "4", "--json");
    append("lost 2", "lost 3");
    tail.awaitOut("\"data\":\"lost 3\"");

    server.restoreFrom(backup);
    tail.awaitErr("the server's highest position is 1, below 3: it was restored from a backup");
    append("re-issued 2");

    List<Map<String, Object>> blocks = blocks(tail.await());
    assertEquals(List.of("old", "lost 2", "lost 3", "re-issued 2"), data(blocks));
    assertEquals(List.of(1L, 2L, 3L, 2L), blocks.stream().map(b -> b.get("position")).toList());
  }

  private static List<Map<String, Object>> blocks(Cli.Result result) {
    return JsonLines.parse(result.lines()).stream().filter(e -> e.get("type").equals("block")).toList();
  }

  private static List<Object> data(List<Map<String, Object>> blocks) {
    return blocks.stream().map(b -> b.get("data")).toList();
  }

  private void append(String... texts) {
    String[] args = new String[8 + texts.length];
    System.arraycopy(new String[] {"append", "--server", server.address(), "--space", "demo", "--feed", feed, "--json"},
        0, args, 0, 8);
    System.arraycopy(texts, 0, args, 8, texts.length);
    Cli.Result appended = Cli.run(args);
    assertEquals(0, appended.exit(), appended.toString());
  }

}
