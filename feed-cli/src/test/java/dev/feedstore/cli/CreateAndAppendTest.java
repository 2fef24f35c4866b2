package dev.feedstore.cli;

import dev.feedstore.server.testing.RestartableServer;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.SpaceId;
import dev.feedstore.server.settings.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreateAndAppendTest {
  private static final SpaceId DEMO = SpaceId.of("demo");

  @TempDir Path dir;
  RestartableServer server;

  @BeforeEach
  void start() {
    server = RestartableServer.loopback(dir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void createPrintsTheNewFeedIdAndTheServerHoldsTheFeedWithItsNamespaceAndFirstBlock() {
    Cli.Result created = Cli.run("create", "--server", server.address(), "--space", "demo", "--namespace", "notes",
        "first note");

    assertEquals(0, created.exit(), created.toString());
    FeedId feed = FeedId.of(created.out().strip());
    assertTrue(created.err().contains("created feed " + feed + " in space demo (namespace notes)"), created.err());
    List<FeedInfo> feeds = server.store().read(tx -> tx.feeds().list(DEMO, Optional.empty()));
    assertEquals(1, feeds.size());
    assertEquals(Optional.of(Namespace.of("notes")), feeds.get(0).namespace());
    List<Block> blocks = feed(feed);
    assertEquals("first note", blocks.get(0).data().toStringUtf8());
    assertEquals("feedctl/0", blocks.get(0).actorId() + "/" + blocks.get(0).sequence());
  }

  @Test
  void createWithoutTextStoresAnEmptyFirstBlockAndJsonNamesTheFeed() {
    Cli.Result created = Cli.run("create", "--server", server.address(), "--space", "demo", "--actor", "ops", "--json");

    assertEquals(0, created.exit(), created.toString());
    Map<String, Object> line = JsonLines.parse(created.out().strip());
    assertEquals("created", line.get("type"));
    assertEquals("ops", line.get("actor_id"));
    assertEquals(1L, line.get("position"));
    assertFalse(line.containsKey("namespace"));
    assertEquals(0, feed(FeedId.of((String) line.get("feed_id"))).get(0).data().size());
  }

  @Test
  void appendChainsSequencesAndPredecessorsAfterTheFeedsLastBlock() {
    FeedId feed = FeedId.of(Cli.run("create", "--server", server.address(), "--space", "demo", "zero").out().strip());

    Cli.Result appended = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed.value(),
        "--actor", "bob", "one", "two");

    assertEquals(0, appended.exit(), appended.toString());
    assertEquals(List.of("appended " + feed + "/bob/1 at position 2", "appended " + feed + "/bob/2 at position 3"),
        appended.lines());
    List<Block> blocks = feed(feed);
    assertEquals(List.of("zero", "one", "two"), blocks.stream().map(b -> b.data().toStringUtf8()).toList());
    assertEquals(Optional.of(Predecessor.of(blocks.get(0).key())), blocks.get(1).predecessor());
    assertEquals(Optional.of(Predecessor.of(blocks.get(1).key())), blocks.get(2).predecessor());
  }

  @Test
  void appendTakesOneBlockPerLineOfStandardInputInBatches() {
    FeedId feed = FeedId.generate();
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 25; i++) {
      lines.append("line ").append(i).append('\n');
    }

    Cli.Result appended = Cli.runWithInput(lines.toString(), "append", "--server", server.address(), "--space", "demo",
        "--feed", feed.value(), "--namespace", "logs", "--batch", "10", "--json");

    assertEquals(0, appended.exit(), appended.toString());
    List<Map<String, Object>> json = JsonLines.parse(appended.lines());
    assertEquals(25, json.size());
    for (int i = 0; i < 25; i++) {
      assertEquals((long) i, json.get(i).get("sequence"));
      assertEquals((long) i + 1, json.get(i).get("position"));
    }
    List<Block> blocks = feed(feed);
    assertEquals("line 24", blocks.get(24).data().toStringUtf8());
    assertEquals(Optional.of(Predecessor.of(blocks.get(9).key())), blocks.get(10).predecessor(),
        "the second batch follows the first");
    assertEquals(Optional.of(Namespace.of("logs")),
        server.store().read(tx -> tx.feeds().find(DEMO, feed)).orElseThrow().namespace());
  }

  @Test
  void appendOfAFileStoresItsBytesAsOneBlock() throws Exception {
    byte[] bytes = {0, (byte) 0xff, 1, (byte) 0xc3};
    Path file = Files.write(dir.resolve("blob.bin"), bytes);
    FeedId feed = FeedId.generate();

    Cli.Result appended = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed.value(),
        "--file", file.toString());

    assertEquals(0, appended.exit(), appended.toString());
    assertTrue(java.util.Arrays.equals(bytes, feed(feed).get(0).data().toByteArray()));
  }

  @Test
  void appendWarnsThatNamespaceOnlyAppliesToANewFeed() {
    FeedId feed = FeedId.of(Cli.run("create", "--server", server.address(), "--space", "demo", "--namespace", "a")
        .out().strip());

    Cli.Result appended = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed", feed.value(),
        "--namespace", "b", "x");

    assertEquals(0, appended.exit(), appended.toString());
    assertTrue(appended.err().contains("exists with namespace a; --namespace b only applies to a new feed"),
        appended.err());
  }

  @Test
  void aBlockOverTheServersLimitIsRefusedWithTheLimitNamedAndExitCode1() {
    server.close();
    ServerSettings eightBytes = ServerSettings.newBuilder().set(BLOCK_BYTES, 8).build();
    server = RestartableServer.loopback(dir, builder -> builder.settings(eightBytes));

    Cli.Result refused = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed",
        FeedId.generate().value(), "more than eight bytes");

    assertEquals(FeedCtl.Exit.REFUSED, refused.exit(), refused.toString());
    assertTrue(refused.err().startsWith("feedctl: RESOURCE_EXHAUSTED: "), refused.err());
    assertTrue(refused.err().contains("block-bytes"), refused.err());
  }

  @Test
  void appendWithNothingToAppendIsAUsageError() {
    Cli.Result refused = Cli.run("append", "--server", server.address(), "--space", "demo", "--feed",
        FeedId.generate().value());

    assertEquals(FeedCtl.Exit.USAGE, refused.exit(), refused.toString());
    assertEquals("feedctl: nothing to append: give TEXT, --file, or lines on standard input\n", refused.err());
  }

  private List<Block> feed(FeedId feed) {
    return server.store().read(tx -> tx.blocks().feed(DEMO, feed));
  }
}
