package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.OpenReplica;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.sqlite.testing.ForeignDatabase;
import dev.feedstore.testing.JavaProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One owner per replica file, and a quiet open: a second process (or a second {@link Replica} of
 * this one) is refused with the file named, the first keeps working, and opening logs nothing into
 * the application's log at INFO.
 */
class ReplicaFileTest {
  private static final SpaceId SPACE = SpaceId.of("team");

  @TempDir Path dir;

  @Test
  void aSecondProcessOpeningAReplicasFileIsRefusedAndTheFirstKeepsWorking() throws Exception {
    Path file = dir.resolve("alice.db");
    try (RestartableServer authority = RestartableServer.inProcess(dir);
        Replica alice = Replica.open(file, ActorId.of("alice"))) {
      FeedId feed = alice.createFeed(SPACE, Optional.empty(), Replication.fullHistory());
      alice.append(SPACE, feed, BlockData.utf8("before"));

      JavaProcess second = JavaProcess.run(dir, JavaProcess.testClassPath(), List.of(), OpenReplica.class.getName(),
          file.toString());
      assertEquals(3, second.exitCode(), second.output());
      assertTrue(second.output().contains("refused: replica file " + file.toRealPath() + " is in use by process "
          + ProcessHandle.current().pid()), second.output());

      alice.append(SPACE, feed, BlockData.utf8("after"));
      try (SyncSession session = alice.connect(authority.channel())) {
        assertTrue(session.awaitSynced(Duration.ofSeconds(30)), session.status().toString());
      }
      assertEquals(List.of("before", "after"),
          alice.read(SPACE, feed).stream().map(b -> b.data().toStringUtf8()).toList());
      assertEquals(2, authority.store().read(tx -> tx.blocks().feed(SPACE, feed)).size());
      assertTrue(alice.feeds(SpaceId.of("s")).isEmpty(), "the second process wrote nothing");
    }
  }

  @Test
  void aFileIsFreeAgainOnceItsReplicaClosedOrItsProcessEnded() {
    Path file = dir.resolve("bob.db");
    JavaProcess first = JavaProcess.run(dir, JavaProcess.testClassPath(), List.of(), OpenReplica.class.getName(),
        file.toString());
    assertEquals(0, first.exitCode(), first.output());
    try (Replica bob = Replica.open(file, ActorId.of("bob"))) {
      assertEquals(1, bob.feeds(SpaceId.of("s")).size(), "what the process that ended wrote");
    }
    Replica.open(file, ActorId.of("bob")).close();
  }

  @Test
  void aSecondReplicaOfOneFileInThisProcessIsRefusedWithoutTouchingTheFirst() {
    Path file = dir.resolve("carol.db");
    try (Replica carol = Replica.open(file, ActorId.of("carol"))) {
      FeedId feed = carol.createFeed(SPACE, Optional.empty(), Replication.NONE);
      ReplicaInUseException refused = assertThrows(ReplicaInUseException.class,
          () -> Replica.open(dir.resolve(".").resolve("carol.db"), ActorId.of("mallory")));
      assertTrue(refused.getMessage().contains("in use by another Replica of this process"), refused.getMessage());
      assertEquals(file.toAbsolutePath(), refused.file());
      carol.append(SPACE, feed, BlockData.utf8("still mine"));
      assertEquals(1, carol.read(SPACE, feed).size());
    }
  }

  @Test
  void aReplicaInAMissingDirectorySaysSo() {
    Path file = dir.resolve("missing").resolve("dave.db");
    var e = assertThrows(dev.feedstore.core.store.StoreException.class, () -> Replica.open(file, ActorId.of("dave")));
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("directory must exist"),
        e.getMessage());
    assertFalse(Files.exists(file));
  }

  @Test
  void aFileThatIsNotAReplicaIsRefusedAndLeftAloneWithNothingBesideIt() throws Exception {
    Path foreign = dir.resolve("notes.txt");
    Files.writeString(foreign, "not a database");
    assertThrows(dev.feedstore.core.store.StoreException.class, () -> Replica.open(foreign, ActorId.of("erin")));
    assertEquals("not a database", Files.readString(foreign));
    assertFalse(Files.exists(dir.resolve("notes.txt-lock")), "no lock file left beside it");
  }

  @Test
  void openingAndWritingAReplicaLogsNothingAtInfo() {
    // A process of its own: libraries announce themselves once per process, and an application
    // logs at INFO.
    JavaProcess quiet = JavaProcess.run(dir, JavaProcess.testClassPath(),
        List.of("org.slf4j.simpleLogger.defaultLogLevel=info"), OpenReplica.class.getName(),
        dir.resolve("erin.db").toString());
    assertEquals(0, quiet.exitCode(), quiet.output());
    assertTrue(quiet.output().contains("opened"), quiet.output());
    assertEquals(List.of(), quiet.output().lines().filter(line -> line.contains(" INFO ")).toList(), quiet.output());
  }

  /**
   * The store renders its SQL with jOOQ, which announces itself (a logo, a tip of the day) the first
   * time it renders, in a process of its own; a library must not, even at DEBUG. An application that
   * asks for the logo gets it, which shows that this test would see it.
   */
  @Test
  void jooqWritesNothingToTheLogOfAReplicasFirstOpen() {
    JavaProcess first = JavaProcess.run(dir, JavaProcess.testClassPath(),
        List.of("org.slf4j.simpleLogger.defaultLogLevel=debug"), OpenReplica.class.getName(),
        dir.resolve("first.db").toString());
    assertEquals(0, first.exitCode(), first.output());
    assertTrue(first.output().contains("opened"), first.output());
    assertEquals(List.of(), first.output().lines().filter(ReplicaFileTest::fromJooq).toList(), first.output());

    JavaProcess asked = JavaProcess.run(dir, JavaProcess.testClassPath(),
        List.of("org.slf4j.simpleLogger.defaultLogLevel=info", "org.jooq.no-logo=false", "org.jooq.no-tips=false"),
        OpenReplica.class.getName(),
        dir.resolve("asked.db").toString());
    assertTrue(asked.output().lines().anyMatch(ReplicaFileTest::fromJooq), asked.output());
  }

  private static boolean fromJooq(String line) {
    String lower = line.toLowerCase(java.util.Locale.ROOT);
    return lower.contains("jooq") || line.contains("@@@@") || lower.contains("tip of the day")
        || lower.contains("database version");
  }

  @Test
  void aDatabaseOfAnotherApplicationIsRefusedAndLeftByteIdentical() throws Exception {
    Path file = ForeignDatabase.create(dir.resolve("other-app.db"));
    byte[] before = Files.readAllBytes(file);

    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
        () -> Replica.open(file, ActorId.of("alice")));

    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("another application"), e.getMessage());
    ForeignDatabase.assertUntouched(file, before);
  }
}
