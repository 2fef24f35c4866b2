package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartialReplicationTest {
  private static final SpaceId SPACE = SpaceId.of("team");
  private static final Pattern PULLED = Pattern.compile("pulled (\\d+) blocks");

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private SyncDriver<Replica> writerDriver;
  private Replica writer;
  private FeedId busy;
  private FeedId other;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
    writerDriver = Replicas.driver(authority.channel(), SPACE);
    writer = replicas.open("writer");
    busy = writer.createFeed(SPACE, Optional.of(Namespace.of("data")), Replication.fullHistory());
    other = writer.createFeed(SPACE, Optional.of(Namespace.of("trace")), Replication.fullHistory());
    for (int i = 0; i < 5; i++) {
      replicas.append(writer, SPACE, busy, "busy-old-" + i, 20);
      replicas.append(writer, SPACE, other, "other-old-" + i, 10);
    }
    writerDriver.untilQuiet(10, writer);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  @Test
  void liveTailFollowerNeverReceivesOlderBlocksNorOtherFeeds() {
    Replica tail = replicas.open("tail");
    tail.replicate(SPACE, busy, Replication.LATEST);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, tail);
    assertEquals(List.of(), tail.read(SPACE, busy));

    List<String> fresh = replicas.append(writer, SPACE, busy, "busy-new", 5);
    replicas.append(writer, SPACE, other, "other-new", 5);
    writerDriver.untilQuiet(10, writer);
    driver.untilQuiet(10, tail);

    assertEquals(fresh, data(tail, SPACE, busy));
    assertEquals(List.of(busy), tail.feeds(SPACE).stream().map(FeedInfo::feedId).toList());
    assertEquals(5, blocksTransferred(driver), "only the new blocks of the followed feed crossed the wire");
    assertTrue(tail.replication(SPACE, busy) instanceof Replication.From from && from.from().value() == 151,
        "the live tail resolved to the position after the authority's highest: " + tail.replication(SPACE, busy));
  }

  @Test
  void feedAddedLaterWithFullHistoryIsBackFilled() {
    Replica reader = replicas.open("reader");
    reader.replicate(SPACE, busy, Replication.LATEST);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, reader);
    replicas.append(writer, SPACE, busy, "busy-new", 3);
    writerDriver.untilQuiet(10, writer);
    driver.untilQuiet(10, reader);
    assertEquals(3, reader.read(SPACE, busy).size());

    reader.replicate(SPACE, other, Replication.fullHistory());
    driver.untilQuiet(10, reader);
    assertEquals(authority.store().read(tx -> tx.blocks().feed(SPACE, other)), reader.read(SPACE, other));
    assertEquals(50, reader.read(SPACE, other).size());
    assertEquals(3, reader.read(SPACE, busy).size(), "the live-tail feed gained no history");

    List<String> later = replicas.append(writer, SPACE, other, "other-later", 2);
    writerDriver.untilQuiet(10, writer);
    driver.untilQuiet(10, reader);
    assertEquals(later, data(reader, SPACE, other).subList(50, 52));
  }

  @Test
  void feedAddedFromAPositionGetsThatPositionAndAfter() {
    Replica reader = replicas.open("reader");
    // The writer pushed the busy feed's 100 blocks first: positions 1-100.
    reader.replicate(SPACE, busy, Replication.from(Position.of(91)));
    Replicas.driver(authority.channel(), SPACE).untilQuiet(10, reader);
    List<String> expected = authority.store().read(tx -> tx.blocks().feed(SPACE, busy)).stream()
        .filter(b -> b.position().value() >= 91).map(b -> b.data().toStringUtf8()).toList();
    assertEquals(10, expected.size());
    assertEquals(expected, data(reader, SPACE, busy));
  }

  @Test
  void namespacePolicyPicksUpFeedsCreatedAfterIt() {
    Replica reader = replicas.open("reader");
    reader.replicateNamespace(SPACE, Namespace.of("data"), true);
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
    driver.untilQuiet(10, reader);
    assertEquals(100, reader.read(SPACE, busy).size());
    assertEquals(List.of(), reader.read(SPACE, other));

    FeedId created = writer.createFeed(SPACE, Optional.of(Namespace.of("data")), Replication.fullHistory());
    List<String> fresh = replicas.append(writer, SPACE, created, "new-feed", 4);
    FeedId elsewhere = writer.createFeed(SPACE, Optional.of(Namespace.of("trace")), Replication.fullHistory());
    replicas.append(writer, SPACE, elsewhere, "elsewhere", 4);
    writerDriver.untilQuiet(10, writer);
    driver.untilQuiet(10, reader);

    assertEquals(fresh, data(reader, SPACE, created));
    assertEquals(Optional.of(Namespace.of("data")),
        reader.feeds(SPACE).stream().filter(f -> f.feedId().equals(created)).findFirst().orElseThrow().namespace());
    assertEquals(List.of(), reader.read(SPACE, elsewhere));
  }

  @Test
  void localOnlyFeedsAreNeverPushed() {
    Replica local = replicas.open("local");
    FeedId mine = local.createFeed(SPACE, Optional.empty(), Replication.NONE);
    replicas.append(local, SPACE, mine, "private", 3);
    Replicas.driver(authority.channel(), SPACE).untilQuiet(10, local);
    assertEquals(Optional.empty(), authority.store().read(tx -> tx.feeds().find(SPACE, mine)));
    assertEquals(3, local.read(SPACE, mine).size());
  }

  private static int blocksTransferred(SyncDriver<Replica> driver) {
    int total = 0;
    for (SyncStep step : driver.steps()) {
      Matcher matcher = PULLED.matcher(step.detail());
      if (step.kind() == SyncStep.Kind.PULLED && matcher.find()) {
        total += Integer.parseInt(matcher.group(1));
      }
    }
    return total;
  }
}
