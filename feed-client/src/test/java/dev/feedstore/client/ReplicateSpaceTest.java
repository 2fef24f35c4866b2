package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Convergence;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.UnknownFeedException;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole spaces and feeds another replica created: {@code replicateSpace} follows every feed of a
 * space, those created later and those without a namespace included; a feed known by id takes
 * appends at once; an unknown one is refused with a message that says how to make it known.
 */
class ReplicateSpaceTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private SyncDriver<Replica> driver;
  private Replica writer;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
    driver = Replicas.driver(authority.channel(), SPACE);
    writer = replicas.open("writer");
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  @Test
  void aWholeSpaceBringsEveryFeedIncludingLaterOnesAndPushesTheReplicasOwn() {
    FeedId notes = writer.createFeed(SPACE, Optional.of(Namespace.of("notes")), Replication.fullHistory());
    FeedId plain = writer.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(writer, SPACE, notes, "note", 3);
    replicas.append(writer, SPACE, plain, "plain", 2);
    driver.untilQuiet(10, writer);

    Replica reader = replicas.open("reader");
    FeedId local = reader.createFeed(SPACE, Optional.empty(), Replication.NONE);
    reader.append(SPACE, local, BlockData.utf8("the reader's own"));
    reader.replicateSpace(SPACE, Replication.fullHistory());
    assertEquals(Replication.fullHistory(), reader.replication(SPACE));
    driver.untilQuiet(10, writer, reader);
    assertEquals(List.of("note-0", "note-1", "note-2"), data(reader, SPACE, notes));
    assertEquals(List.of("plain-0", "plain-1"), data(reader, SPACE, plain));

    FeedId later = writer.createFeed(SPACE, Optional.of(Namespace.of("later")), Replication.fullHistory());
    replicas.append(writer, SPACE, later, "later", 2);
    driver.untilQuiet(10, writer, reader);
    assertEquals(List.of("later-0", "later-1"), data(reader, SPACE, later), "a feed created later");
    assertEquals(Optional.of(Namespace.of("later")),
        reader.feeds(SPACE).stream().filter(f -> f.feedId().equals(later)).findFirst().orElseThrow().namespace());
    assertEquals(1, authority.store().read(tx -> tx.blocks().feed(SPACE, local)).size(), "its own feed is pushed");
    Convergence.assertConverged(authority.store(), SPACE, List.of(notes, plain, later), reader);
  }

  @Test
  void aWholeSpaceFromItsLiveTailSkipsTheHistoryAndNoneEndsIt() {
    FeedId feed = writer.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(writer, SPACE, feed, "old", 5);
    driver.untilQuiet(10, writer);

    Replica reader = replicas.open("reader");
    reader.replicateSpace(SPACE, Replication.LATEST);
    driver.untilQuiet(10, writer, reader);
    assertEquals(List.of(), data(reader, SPACE, feed), "no history");
    replicas.append(writer, SPACE, feed, "new", 2);
    driver.untilQuiet(10, writer, reader);
    assertEquals(List.of("new-0", "new-1"), data(reader, SPACE, feed));

    reader.replicateSpace(SPACE, Replication.NONE);
    assertEquals(Replication.NONE, reader.replication(SPACE));
    replicas.append(writer, SPACE, feed, "after", 1);
    driver.untilQuiet(10, writer, reader);
    assertEquals(List.of("new-0", "new-1"), data(reader, SPACE, feed), "nothing after the policy ended");
  }

  @Test
  void aFeedAnotherReplicaCreatedTakesAppendsAsSoonAsItIsReplicated() {
    FeedId shared = writer.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    replicas.append(writer, SPACE, shared, "writer", 2);
    driver.untilQuiet(10, writer);

    Replica other = replicas.open("other");
    UnknownFeedException unknown = assertThrows(UnknownFeedException.class,
        () -> other.append(SPACE, shared, BlockData.utf8("too early")));
    assertTrue(unknown.getMessage().contains("replicate it first"), unknown.getMessage());
    assertTrue(unknown.getMessage().contains(shared.value()), unknown.getMessage());

    other.replicate(SPACE, shared, Replication.fullHistory());
    other.append(SPACE, shared, BlockData.utf8("other, before any pull"));
    driver.untilQuiet(10, writer, other);
    assertEquals(3, authority.store().read(tx -> tx.blocks().feed(SPACE, shared)).size());
    Convergence.assertConverged(authority.store(), SPACE, List.of(shared), writer, other);
  }

  @Test
  void aFeedPulledThroughTheSpaceTakesAppends() {
    FeedId shared = writer.createFeed(SPACE, Optional.of(Namespace.of("chat")), Replication.fullHistory());
    replicas.append(writer, SPACE, shared, "writer", 1);
    driver.untilQuiet(10, writer);

    Replica other = replicas.open("other");
    other.replicateSpace(SPACE, Replication.fullHistory());
    driver.untilQuiet(10, other);
    List<Block> held = other.read(SPACE, shared);
    other.append(SPACE, shared, BlockData.utf8("a reply"));
    assertEquals(Optional.of(dev.feedstore.core.Predecessor.of(held.get(0).key())), other.read(SPACE, shared).get(1).predecessor(),
        "the reply follows what was pulled");
    driver.untilQuiet(10, writer, other);
    Convergence.assertConverged(authority.store(), SPACE, List.of(shared), writer, other);
  }
}
