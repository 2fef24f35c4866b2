package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.assertConverged;
import static dev.feedstore.client.testing.Convergence.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.sync.SyncStep;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.DiskFaults;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bit flipped inside a block's data in a replica's closed file: a read of it is a clear error,
 * and the replica fetches the block again from the authority, or, for its only copy, sets it aside
 * and never pushes it.
 */
class CorruptBlockRepairTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private SyncDriver<Replica> driver;
  private FeedId feed;

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir);
    replicas = new Replicas(dir);
    driver = Replicas.driver(authority.channel(), SPACE);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  private static String note(int i) {
    return "note-" + i + "-" + "w".repeat(40);
  }

  /** Alice writes notes 1..5 (positions 1..5); bob pulls them all; bob's file is closed. */
  private Replica bobHoldingFiveNotes() {
    Replica alice = replicas.open("alice");
    feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    for (int i = 1; i <= 5; i++) {
      alice.append(SPACE, feed, BlockData.utf8(note(i)));
    }
    Replica bob = replicas.open("bob");
    bob.replicate(SPACE, feed, Replication.fullHistory());
    driver.untilQuiet(10, alice, bob);
    assertEquals(5, bob.sync(SPACE).state().cursor().value());
    bob.close();
    return alice;
  }

  @Test
  void corruptPulledBlocksAreAClearErrorAndComeBackFromTheAuthority() {
    Replica alice = bobHoldingFiveNotes();
    DiskFaults.flipABitInside(replicas.file("bob"), note(3));
    DiskFaults.flipABitInside(replicas.file("bob"), note(5)); // the block at bob's cursor
    Replica bob = replicas.open("bob");

    CorruptBlockException first = assertThrows(CorruptBlockException.class, () -> bob.read(SPACE, feed));
    assertEquals(SPACE, first.spaceId());
    assertEquals(alice.read(SPACE, feed).get(2).key(), first.key());
    assertEquals(Position.of(3), first.position());
    assertTrue(first.getMessage().contains("sequence 2, position 3) is corrupt"), first.getMessage());
    CorruptBlockException second = assertThrows(CorruptBlockException.class, () -> bob.read(SPACE, feed));
    assertEquals(Position.of(5), second.position());
    assertEquals(List.of(note(1), note(2), note(4)), data(bob, SPACE, feed), "set aside, never served");
    assertEquals(0, bob.sync(SPACE).state().cursor().value(),
        "the cursor went back before the first, to the start: bob recorded the authority's chain at 5 only");

    driver.untilQuiet(10, bob);
    assertEquals(List.of(note(1), note(2), note(3), note(4), note(5)), data(bob, SPACE, feed));
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
    assertEquals(5, bob.sync(SPACE).state().cursor().value());
  }

  @Test
  void aSessionFetchesAgainABlockItsListenerFoundCorrupt() throws Exception {
    Replica alice = bobHoldingFiveNotes();
    DiskFaults.flipABitInside(replicas.file("bob"), note(2));
    Replica bob = replicas.open("bob");
    List<String> told = new CopyOnWriteArrayList<>();
    List<String> notes = List.of(note(1), note(2), note(3), note(4), note(5));
    FeedListener listener = update -> update.changes().values()
        .forEach(blocks -> blocks.forEach(b -> told.add(b.data().toStringUtf8())));
    try (SyncSession session = bob.connect(authority.channel());
        Registration listening = bob.listen(SPACE, Scope.feeds(Set.of(feed)), listener)) {
      Await.until("the listener is told the block fetched again", Duration.ofSeconds(30), () -> told.contains(note(2)));
      assertTrue(session.awaitSynced(Duration.ofSeconds(30)), "synced: " + session.status());
      assertEquals(notes, data(bob, SPACE, feed));
    }
    assertTrue(notes.containsAll(told), "listeners were never told the corrupt content: " + told);
    assertConverged(authority.store(), SPACE, List.of(feed), alice, bob);
  }

  @Test
  void aCorruptBlockOfAFeedNoLongerPulledIsSetAsideAndTheCursorStays() throws Exception {
    bobHoldingFiveNotes();
    Replica bob = replicas.open("bob");
    bob.replicate(SPACE, feed, Replication.NONE);
    bob.close();
    DiskFaults.flipABitInside(replicas.file("bob"), note(4));
    Replica reopened = replicas.open("bob");

    assertThrows(CorruptBlockException.class, () -> reopened.read(SPACE, feed));
    assertEquals(List.of(note(1), note(2), note(3), note(5)), data(reopened, SPACE, feed));
    assertEquals(5, reopened.sync(SPACE).state().cursor().value(), "nothing to fetch again: the feed is not pulled");
    assertEquals(1, setAsideCount("bob"));
  }

  private int setAsideCount(String actor) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + replicas.file(actor));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM set_aside_blocks")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Test
  void aCorruptBlockOnlyThisReplicaHeldIsSetAsideNotPushedAndReported() throws Exception {
    Replica alice = replicas.open("alice");
    feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
    for (int i = 1; i <= 3; i++) {
      alice.append(SPACE, feed, BlockData.utf8(note(i)));
    }
    alice.close();
    DiskFaults.flipABitInside(replicas.file("alice"), note(2));
    Replica reopened = replicas.open("alice");

    SyncStep step = driver.push(reopened);
    assertEquals(SyncStep.Kind.SET_ASIDE, step.kind(), step.detail());
    assertTrue(step.detail().contains("sequence 1, unpositioned) is corrupt"), step.detail());
    assertTrue(step.detail().contains("only copy"), step.detail());
    driver.untilQuiet(10, reopened);

    assertEquals(List.of(note(1), note(3)),
        authority.store().read(tx -> tx.blocks().feed(SPACE, feed)).stream().map(b -> b.data().toStringUtf8()).toList(),
        "the corrupt block was not pushed, the others were");
    assertEquals(List.of(note(1), note(3)), data(reopened, SPACE, feed));
    assertEquals(1, setAsideCount("alice"), "its bytes are kept in the file");
  }
}
