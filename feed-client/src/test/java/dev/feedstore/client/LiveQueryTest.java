package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.client.testing.FromScratch;
import dev.feedstore.client.testing.QueryRecorder;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.RowUpdate;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Replica#liveQuery} over real SQLite files and a real authority: the snapshot, then the
 * changes of each local commit or pulled batch, resets after recoveries, the history gap, refused
 * blocks; after every event the listener's copy equals the query evaluated from scratch over the
 * replica's file ({@link FromScratch}).
 */
class LiveQueryTest {
  private static final SpaceId SPACE = SpaceId.of("work");
  private static final Namespace TASKS = Namespace.of("tasks");
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-01T08:00:00Z"), ZoneOffset.UTC);
  private static final LiveQuery OPEN_FOR_ANA = LiveQuery.parse("space:work namespace:tasks key:/id"
      + " where /assignee = \"ana\" and /done = false tombstone /deleted = true");
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void offlineTheSnapshotComesFirstThenEachLocalCommitAsEnteredUpdatedOrLeftRows() {
    Replica alice = replica("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
    append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}", "{\"id\":2,\"assignee\":\"bob\",\"done\":false}");
    QueryRecorder recorder = register(alice, OPEN_FOR_ANA);

    LiveQueryEvent.Snapshot snapshot = assertInstanceOf(LiveQueryEvent.Snapshot.class, recorder.next());
    assertEquals(List.of(DocumentId.of(1)), ids(snapshot.rows()));
    assertTrue(snapshot.rows().get(0).version().pending(), "written here, not positioned");
    long commit = snapshot.state().commit();

    append(alice, feed, "{\"id\":3,\"assignee\":\"ana\",\"done\":false}");
    ChangeBatch entered = changes(recorder.next(), commit + 1);
    assertEquals(List.of(DocumentId.of(3)), ids(entered.entered()));

    append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false,\"title\":\"ship it\"}");
    ChangeBatch updated = changes(recorder.next(), commit + 2);
    RowUpdate update = updated.updated().get(0);
    assertEquals(snapshot.rows().get(0), update.previous(), "an update carries the row before");
    assertEquals(JsonValue.of("ship it"), JsonPointer.parse("/title").resolve(update.current().content().orElseThrow()));

    append(alice, feed, "{\"id\":3,\"deleted\":true}", "{\"id\":2,\"assignee\":\"ana\",\"done\":false}");
    ChangeBatch both = changes(recorder.next(), commit + 3);
    assertEquals(List.of(DocumentId.of(3)), ids(both.left()), "a tombstone takes its document out");
    assertEquals(List.of(DocumentId.of(2)), ids(both.entered()), "one commit, one batch");
    assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
    assertEquals(List.of(), recorder.misfits());
  }

  @Test
  void aPushedVersionIsUpdatedToPositionedAndAPullIsOneBatch() {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replica("alice");
      Replica bob = replica("bob");
      FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      alice.replicateNamespace(SPACE, TASKS, true);
      bob.replicateNamespace(SPACE, TASKS, true);
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}");
      QueryRecorder recorder = register(alice, OPEN_FOR_ANA);
      recorder.next();

      driver.push(alice);
      RowUpdate positioned = changes(recorder.next()).updated().get(0);
      assertTrue(positioned.previous().version().pending());
      assertEquals(1, positioned.current().version().position().value());
      assertTrue(positioned.current().version().receivedAt().isPresent(), "with the authority's receive time");

      driver.pull(bob);
      FeedId bobs = bob.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      append(bob, bobs, "{\"id\":5,\"assignee\":\"ana\",\"done\":false}", "{\"id\":6,\"assignee\":\"ana\",\"done\":false}");
      append(bob, bobs, "{\"id\":1,\"assignee\":\"ana\",\"done\":true}");
      driver.push(bob);
      driver.pull(alice);
      ChangeBatch pulled = changes(recorder.next());
      assertEquals(List.of(DocumentId.of(5), DocumentId.of(6)), ids(pulled.entered()));
      assertEquals(List.of(DocumentId.of(1)), ids(pulled.left()), "done elsewhere: it leaves");
      assertNull(recorder.poll(), "one pull, one batch");
      assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
    }
  }

  @Test
  void aSwapOfTheAuthorityIsAResetWhoseRowsArePendingAgain() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replica("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}");
      driver.push(alice);
      QueryRecorder recorder = register(alice, OPEN_FOR_ANA);
      assertEquals(1, ((LiveQueryEvent.Snapshot) recorder.next()).rows().get(0).version().position().value());

      authority.wipe();
      driver.pull(alice);

      LiveQueryEvent.Reset reset = assertInstanceOf(LiveQueryEvent.Reset.class, recorder.next());
      assertTrue(reset.rows().get(0).version().pending(), "positions cleared by the swap");
      assertEquals(List.of(DocumentId.of(1)), ids(reset.changes().updated().stream().map(RowUpdate::current).toList()),
          "the exact difference from what was told");
      driver.untilQuiet(5, alice);
      assertTrue(alice.liveQuery(OPEN_FOR_ANA, e -> {}).awaitCurrent(WAIT));
      assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
      assertEquals(List.of(), recorder.misfits());
    }
  }

  @Test
  void aRollbackOfTheAuthorityIsAResetWhoseLostVersionIsPendingUntilPushedAgain() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replica("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}");
      driver.push(alice);
      Path before = authority.snapshot();
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false,\"title\":\"ship it\"}");
      driver.push(alice);
      driver.pull(alice);
      QueryRecorder recorder = register(alice, OPEN_FOR_ANA);
      assertEquals(2, ((LiveQueryEvent.Snapshot) recorder.next()).rows().get(0).version().position().value());

      authority.restoreFrom(before); // the authority lost position 2
      driver.pull(alice);

      // The blocks the recovery unpositioned are known: the exact difference, whether as a reset or not.
      LiveQueryEvent told = recorder.next();
      ChangeBatch difference = told instanceof LiveQueryEvent.Reset reset ? reset.changes() : changes(told);
      assertEquals(List.of(DocumentId.of(1)), ids(difference.updated().stream().map(RowUpdate::current).toList()));
      assertTrue(difference.updated().get(0).current().version().pending(), "the lost position is cleared: " + told);
      assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
      driver.untilQuiet(5, alice);
      assertTrue(alice.liveQuery(OPEN_FOR_ANA, e -> {}).awaitCurrent(WAIT));
      assertEquals(2, recorder.rows().get(0).version().position().value(), "pushed again");
      assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
      assertEquals(List.of(), recorder.misfits());
    }
  }

  @Test
  void historyTheAuthorityCompactedBeforeTheReplicaPulledItIsCarriedByTheQuery() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir)) {
      SyncDriver<Replica> driver = Replicas.driver(authority.channel(), SPACE);
      Replica alice = replica("alice");
      Replica bob = replica("bob");
      FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      bob.replicateNamespace(SPACE, TASKS, true);
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}", "{\"id\":2,\"assignee\":\"ana\",\"done\":false}",
          "{\"id\":3,\"assignee\":\"ana\",\"done\":false}");
      driver.push(alice);
      QueryRecorder recorder = new QueryRecorder(OPEN_FOR_ANA);
      LiveQueryRegistration registration = track(bob.liveQuery(OPEN_FOR_ANA, recorder));
      assertEquals(Optional.empty(), recorder.next().state().historyUnavailable());
      FeedSyncGrpc.newBlockingStub(authority.channel()).compact(CompactRequest.newBuilder().setRequestId("t")
          .setSpaceId(SPACE.value()).setUpTo(2).build());

      driver.untilQuiet(5, bob);
      assertTrue(registration.awaitCurrent(WAIT));

      List<LiveQueryEvent> events = recorder.events();
      assertTrue(events.stream().anyMatch(e -> e instanceof LiveQueryEvent.Reset), "the gap met is a reset: " + events);
      assertEquals(Optional.of(new HistoryGap(SPACE, 2)), events.get(events.size() - 1).state().historyUnavailable());
      assertEquals(List.of(DocumentId.of(3)), ids(recorder.rows()), "what is above the floor");
      assertEquals(FromScratch.rows(bob, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
    }
  }

  @Test
  void aBlockSyncRefusesForItsSizeIsNoVersion() throws Exception {
    try (RestartableServer authority = RestartableServer.inProcess(dir,
        builder -> builder.settings(ServerSettings.newBuilder().set(ServerSettings.BLOCK_BYTES, 200).build()))) {
      GrpcAuthority grpc = new GrpcAuthority(authority.channel());
      grpc.refreshInfo();
      SyncDriver<Replica> driver = Replicas.driver(grpc, SPACE);
      Replica alice = replica("alice");
      FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.fullHistory());
      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}");
      driver.push(alice); // learns the authority's limits
      QueryRecorder recorder = register(alice, OPEN_FOR_ANA);
      Row before = ((LiveQueryEvent.Snapshot) recorder.next()).rows().get(0);

      append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false,\"notes\":\"" + "x".repeat(300) + "\"}");
      assertTrue(alice.liveQuery(OPEN_FOR_ANA, e -> {}).awaitCurrent(WAIT));

      assertEquals(1, alice.refused(SPACE).size());
      assertEquals(List.of(before), recorder.rows(), "the refused block is no version: the row stays");
      assertEquals(FromScratch.rows(alice, OPEN_FOR_ANA, CLOCK.millis()), recorder.rows());
    }
  }

  @Test
  void aQueryMatchingMoreThanTheSettingAllowsEndsNamingIt() throws Exception {
    Replica alice = track(Replica.builder(dir.resolve("small.db")).actorId(ActorId.of("alice")).clock(CLOCK)
        .liveQueryMatches(2).build());
    FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
    append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}", "{\"id\":2,\"assignee\":\"ana\",\"done\":false}");
    QueryRecorder recorder = register(alice, OPEN_FOR_ANA);
    assertEquals(2, ((LiveQueryEvent.Snapshot) recorder.next()).rows().size());

    append(alice, feed, "{\"id\":3,\"assignee\":\"ana\",\"done\":false}");

    LiveQueryEvent.Ended ended = assertInstanceOf(LiveQueryEvent.Ended.class, recorder.next());
    LimitExceededException cause = assertInstanceOf(LimitExceededException.class, ended.cause());
    assertTrue(cause.getMessage().contains("live-query-matches"), cause.getMessage());
    append(alice, feed, "{\"id\":4,\"assignee\":\"ana\",\"done\":false}");
    assertTrue(alice.liveQuery(OPEN_FOR_ANA, e -> {}).awaitCurrent(WAIT));
    assertNull(recorder.poll(), "nothing after the end");
  }

  @Test
  void aClosedRegistrationIsToldNothingMore() throws Exception {
    Replica alice = replica("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
    QueryRecorder recorder = new QueryRecorder(OPEN_FOR_ANA);
    LiveQueryRegistration registration = alice.liveQuery(OPEN_FOR_ANA, recorder);
    recorder.next();

    registration.close();
    append(alice, feed, "{\"id\":1,\"assignee\":\"ana\",\"done\":false}");

    assertTrue(alice.liveQuery(OPEN_FOR_ANA, e -> {}).awaitCurrent(WAIT));
    assertNull(recorder.poll());
  }

  @Test
  void aLocalCommitIsEvaluatedOnceForEveryQueryThatSharesItsKey() {
    Replica alice = replica("alice");
    FeedId feed = alice.createFeed(SPACE, Optional.of(TASKS), Replication.NONE);
    QueryRecorder ana = register(alice, OPEN_FOR_ANA);
    QueryRecorder newest = register(alice, LiveQuery.parse("space:work namespace:tasks key:/id order /id desc limit 2"));
    ana.next();
    newest.next();

    append(alice, feed, "{\"id\":5,\"assignee\":\"ana\",\"done\":false}");
    Row forAna = changes(ana.next()).entered().get(0);
    Row forNewest = changes(newest.next()).entered().get(0);

    assertEquals(forAna.content(), forNewest.content());
    assertSame(forAna.version(), forNewest.version(), "the block's version made once for both");
    assertSame(forAna.id(), forNewest.id(), "its key read once for both");
    assertSame(forAna.content(), forNewest.content(), "its content parsed once for both");
  }

  private Replica replica(String actor) {
    return track(Replica.builder(dir.resolve(actor + ".db")).actorId(ActorId.of(actor)).clock(CLOCK).build());
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.add(closeable);
    return closeable;
  }

  private QueryRecorder register(Replica replica, LiveQuery query) {
    QueryRecorder recorder = new QueryRecorder(query);
    track(replica.liveQuery(query, recorder));
    return recorder;
  }

  private static void append(Replica replica, FeedId feed, String... json) {
    replica.append(SPACE, feed, java.util.Arrays.stream(json).map(BlockData::utf8).toList());
  }

  private static ChangeBatch changes(LiveQueryEvent event) {
    return assertInstanceOf(LiveQueryEvent.Changes.class, event).changes();
  }

  private static ChangeBatch changes(LiveQueryEvent event, long commit) {
    assertEquals(commit, event.state().commit(), "the commit the batch shows");
    return changes(event);
  }

  private static List<DocumentId> ids(List<Row> rows) {
    return rows.stream().map(Row::id).toList();
  }
}
