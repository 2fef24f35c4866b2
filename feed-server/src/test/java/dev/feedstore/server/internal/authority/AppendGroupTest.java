package dev.feedstore.server.internal.authority;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StreamCatalogContract;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.streams.EndedStreams;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.errors.StreamClosedException;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.CountingFeedStore;
import dev.feedstore.server.testing.GatedFeedStore;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.FaultyFeedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit over a real SQLite file: appends that arrive while a write is in flight (held at a
 * gate inside its transaction) are committed together in the next transaction, each with its own
 * dense positions and all or nothing on its own.
 */
class AppendGroupTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  FaultyFeedStore faulty;
  CountingFeedStore counting;
  GatedFeedStore store;
  PositionAuthority authority;
  final ExecutorService callers = Executors.newCachedThreadPool();

  @BeforeEach
  void open() {
    start(ServerSettings.DEFAULTS);
  }

  void start(ServerSettings settings) {
    faulty = new FaultyFeedStore(SqliteFeedStore.open(dir.resolve("feeds.db")), dir.resolve("feeds.db"));
    counting = new CountingFeedStore(faulty);
    store = new GatedFeedStore(counting);
    authority = new PositionAuthority(store, settings, Clock.systemUTC(),
        new EndedStreams(SpaceId.of(settings.get(STREAMS_SPACE))));
  }

  @AfterEach
  void close() throws InterruptedException {
    store.open();
    callers.shutdownNow();
    callers.awaitTermination(30, TimeUnit.SECONDS);
    store.close();
  }

  @Test
  void aLoneAppendIsCommittedAtOnceInATransactionOfItsOwn() {
    FeedId feed = TestBlocks.feedId();
    for (int i = 0; i < 10; i++) {
      assertArrayEquals(new long[] {i + 1}, append(SPACE, TestBlocks.block(feed, "a", i)).positions());
    }
    assertEquals(10, store.writes(), "one transaction per append when nothing else is in flight");
  }

  @Test
  void appendsArrivingDuringACommitAreCommittedTogetherEachWithItsOwnDensePositions() throws Exception {
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<List<Block>> batches = new ArrayList<>();
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      List<Block> batch = batch(TestBlocks.feedId(), "c" + i, 1 + i % 3);
      batches.add(batch);
      calls.add(submit(SPACE, batch));
    }
    Await.until("20 appends waiting for the held commit", () -> authority.waitingAppends() == 20);
    store.open();

    assertArrayEquals(new long[] {1}, first.get(30, TimeUnit.SECONDS).positions());
    TreeSet<Long> all = new TreeSet<>();
    for (int i = 0; i < calls.size(); i++) {
      long[] positions = calls.get(i).get(30, TimeUnit.SECONDS).positions();
      for (int b = 0; b < positions.length; b++) {
        assertEquals(positions[0] + b, positions[b], "an append's blocks take consecutive positions");
        assertEquals(Optional.of(positions[b]), storedPosition(batches.get(i).get(b)));
        all.add(positions[b]);
      }
    }
    int blocks = batches.stream().mapToInt(List::size).sum();
    assertEquals(LongStream.rangeClosed(2, blocks + 1).boxed().toList(), List.copyOf(all), "dense, each once");
    assertEquals(2, store.writes(), "the 20 waiting appends were committed in one transaction");
    assertEquals(blocks + 1, maxPosition(SPACE));
  }

  @Test
  void aConflictingAppendInAGroupFailsAloneAndTheOthersCommit() throws Exception {
    FeedId shared = TestBlocks.feedId();
    append(SPACE, TestBlocks.block(shared, "a", 0, "one"));
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<Future<AppendResult>> good = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      good.add(submit(SPACE, batch(TestBlocks.feedId(), "g" + i, 2)));
    }
    Block extra = TestBlocks.block(shared, "a", 1);
    Future<AppendResult> conflicting = submit(SPACE, List.of(extra, TestBlocks.block(shared, "a", 0, "two")));
    Await.until("the conflicting append waiting", () -> authority.waitingAppends() == 4);
    for (int i = 3; i < 6; i++) {
      good.add(submit(SPACE, batch(TestBlocks.feedId(), "g" + i, 2)));
    }
    Await.until("7 appends waiting", () -> authority.waitingAppends() == 7);
    store.open();

    first.get(30, TimeUnit.SECONDS);
    ExecutionException refused = Assertions.assertThrows(ExecutionException.class,
        () -> conflicting.get(30, TimeUnit.SECONDS));
    AppendConflictException conflict = assertInstanceOf(AppendConflictException.class, refused.getCause());
    assertEquals(List.of(TestBlocks.key(shared, "a", 0)), conflict.keys());
    TreeSet<Long> positions = new TreeSet<>();
    for (Future<AppendResult> call : good) {
      for (long position : call.get(30, TimeUnit.SECONDS).positions()) {
        positions.add(position);
      }
    }
    assertEquals(LongStream.rangeClosed(3, 14).boxed().toList(), List.copyOf(positions),
        "the six other appends of the group committed, densely after the first two blocks");
    assertEquals(Optional.empty(), storedPosition(extra), "nothing of the conflicting append was written");
    assertEquals(14, maxPosition(SPACE));
  }

  @Test
  void aRepushedAppendInAGroupGetsItsStoredPositionsAndTheOthersCommit() throws Exception {
    List<Block> earlier = batch(TestBlocks.feedId(), "r", 3);
    long[] stored = authority.append(new AppendCommand(SPACE, Optional.empty(), earlier)).positions();
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Future<AppendResult> before = submit(SPACE, batch(TestBlocks.feedId(), "b", 2));
    List<Block> repush = new ArrayList<>(earlier);
    Block fresh = TestBlocks.after(earlier.get(2), "r", 3);
    repush.add(fresh);
    Future<AppendResult> repushed = submit(SPACE, repush);
    Await.until("two appends waiting", () -> authority.waitingAppends() == 2);
    Future<AppendResult> after = submit(SPACE, batch(TestBlocks.feedId(), "c", 2));
    Await.until("three appends waiting", () -> authority.waitingAppends() == 3);
    store.open();

    assertArrayEquals(new long[] {4}, first.get(30, TimeUnit.SECONDS).positions());
    long[] repushedAt = repushed.get(30, TimeUnit.SECONDS).positions();
    assertArrayEquals(stored, new long[] {repushedAt[0], repushedAt[1], repushedAt[2]}, "stored blocks keep theirs");
    TreeSet<Long> positions = new TreeSet<>();
    positions.add(repushedAt[3]);
    for (long p : before.get(30, TimeUnit.SECONDS).positions()) {
      positions.add(p);
    }
    for (long p : after.get(30, TimeUnit.SECONDS).positions()) {
      positions.add(p);
    }
    assertEquals(LongStream.rangeClosed(5, 9).boxed().toList(), List.copyOf(positions), "dense after the group");
    assertEquals(Optional.of(repushedAt[3]), storedPosition(fresh));
  }

  @Test
  void aLoneRepushedAppendIsWrittenOnceAsAllNewThenBlockByBlock() {
    List<Block> earlier = batch(TestBlocks.feedId(), "r", 2);
    long[] stored = authority.append(new AppendCommand(SPACE, Optional.empty(), earlier)).positions();
    List<Block> repush = new ArrayList<>(earlier);
    Block fresh = TestBlocks.after(earlier.get(1), "r", 2);
    repush.add(fresh);
    int writes = store.writes();

    long[] positions = authority.append(new AppendCommand(SPACE, Optional.empty(), repush)).positions();

    assertArrayEquals(new long[] {stored[0], stored[1], 3}, positions, "stored blocks keep theirs, the new one next");
    assertEquals(2, store.writes() - writes,
        "written as all new (rolled back at the held key), then block by block; no write more before them");
    assertEquals(Optional.of(3L), storedPosition(fresh));
  }

  @Test
  void aGroupWithOneRepushedBlockIsWrittenWholeOnceBeforeItRunsWithoutIt() throws Exception {
    Block earlier = TestBlocks.block(TestBlocks.feedId(), "r", 0);
    append(SPACE, earlier);
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Future<AppendResult> before = submit(SPACE, batch(TestBlocks.feedId(), "b", 2));
    awaitWaiting(1);
    Future<AppendResult> repushed = submit(SPACE, List.of(earlier));
    awaitWaiting(2);
    Future<AppendResult> after = submit(SPACE, batch(TestBlocks.feedId(), "c", 2));
    awaitWaiting(3);
    int writes = store.writes();
    store.open();

    assertArrayEquals(new long[] {2}, first.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {3, 4}, before.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {1}, repushed.get(30, TimeUnit.SECONDS).positions(), "the stored block's position");
    assertArrayEquals(new long[] {5, 6}, after.get(30, TimeUnit.SECONDS).positions());
    assertEquals(3, store.writes() - writes, "the whole group (rolled back at the held key), the group without"
        + " the re-pushed append, and that append block by block");
    assertEquals(6, maxPosition(SPACE));
  }

  @Test
  void aGroupSpansSpacesAndEachSpaceIsDenseFromOne() throws Exception {
    Future<AppendResult> first = held(SpaceId.of("zero"), TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<SpaceId> spaces = List.of(SpaceId.of("c"), SpaceId.of("a"), SpaceId.of("b"));
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      calls.add(submit(spaces.get(i % 3), batch(TestBlocks.feedId(), "s" + i, 2)));
      int queued = i + 1;
      Await.until(queued + " appends waiting", () -> authority.waitingAppends() == queued);
    }
    store.open();

    first.get(30, TimeUnit.SECONDS);
    for (int s = 0; s < 3; s++) {
      long expected = 1;
      for (int i = s; i < 12; i += 3) {
        assertArrayEquals(new long[] {expected, expected + 1}, calls.get(i).get(30, TimeUnit.SECONDS).positions(),
            "space " + spaces.get(s).value() + ": positions in the order its appends arrived");
        expected += 2;
      }
      assertEquals(8, maxPosition(spaces.get(s)));
    }
    assertEquals(2, store.writes(), "one transaction for the twelve appends to three spaces");
  }

  @Test
  void anAppendOverALimitInAGroupIsRefusedAloneAndTheOthersCommit() throws Exception {
    store.close();
    start(ServerSettings.DEFAULTS.toBuilder().set(FEEDS_PER_SPACE, 3).build());
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Future<AppendResult> fits = submit(SPACE, batch(TestBlocks.feedId(), "f", 2));
    Await.until("one append waiting", () -> authority.waitingAppends() == 1);
    Future<AppendResult> tooMany = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "x", 0),
        TestBlocks.block(TestBlocks.feedId(), "y", 0)));
    Await.until("two appends waiting", () -> authority.waitingAppends() == 2);
    store.open();

    first.get(30, TimeUnit.SECONDS);
    assertArrayEquals(new long[] {2, 3}, fits.get(30, TimeUnit.SECONDS).positions());
    ExecutionException refused = Assertions.assertThrows(ExecutionException.class,
        () -> tooMany.get(30, TimeUnit.SECONDS));
    assertInstanceOf(LimitExceededException.class, refused.getCause());
    assertEquals(3, maxPosition(SPACE));
  }

  @Test
  void anAppendOfNewBlocksToAClosedStreamsFeedInAGroupIsRefusedAloneAndTheOthersCommit() throws Exception {
    SpaceId streams = SpaceId.of(STREAMS_SPACE.defaultValue());
    StreamRecord done = StreamCatalogContract.draft("done", 0, OptionalLong.empty(), 1);
    Block before = TestBlocks.block(done.feedId(), "http", 0);
    append(streams, before);
    store.write(tx -> tx.streams().insert(done.withClosed(1, Optional.empty())));
    Future<AppendResult> first = held(streams, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Future<AppendResult> good = submit(streams, batch(TestBlocks.feedId(), "g", 2));
    awaitWaiting(1);
    Block after = TestBlocks.after(before, "replica", 1);
    Future<AppendResult> closed = submit(streams, List.of(before, after));
    awaitWaiting(2);
    Future<AppendResult> repushed = submit(streams, List.of(before));
    awaitWaiting(3);
    store.open();

    first.get(30, TimeUnit.SECONDS);
    ExecutionException refused = Assertions.assertThrows(ExecutionException.class,
        () -> closed.get(30, TimeUnit.SECONDS));
    StreamClosedException reason = assertInstanceOf(StreamClosedException.class, refused.getCause());
    assertEquals(List.of(done.feedId()), reason.feeds());
    assertArrayEquals(new long[] {3, 4}, good.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {1}, repushed.get(30, TimeUnit.SECONDS).positions(),
        "a block stored before the close keeps its position");
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(streams, after.key())));
    assertEquals(4, maxPosition(streams));
  }

  @Test
  void aStorageFaultFailsEveryAppendOfTheGroupAndCommitsNothingOfIt() throws Exception {
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(submit(SPACE, batch(TestBlocks.feedId(), "f" + i, 2)));
    }
    Await.until("5 appends waiting", () -> authority.waitingAppends() == 5);
    faulty.fail(StorageFaultException.Kind.FULL);
    store.open();

    ExecutionException alone = Assertions.assertThrows(ExecutionException.class,
        () -> first.get(30, TimeUnit.SECONDS));
    assertInstanceOf(StorageFaultException.class, alone.getCause());
    for (Future<AppendResult> call : calls) {
      ExecutionException failed = Assertions.assertThrows(ExecutionException.class,
          () -> call.get(30, TimeUnit.SECONDS));
      assertInstanceOf(StorageFaultException.class, failed.getCause());
    }
    assertEquals(0, maxPosition(SPACE), "nothing of the failed group is stored");
    assertEquals(2, faulty.failedCommits(), "the five waiting appends failed in one transaction, not one by one");
    faulty.heal();
    assertArrayEquals(new long[] {1}, append(SPACE, TestBlocks.block(TestBlocks.feedId(), "next", 0)).positions());
  }

  @Test
  void aGroupOverThreeSpacesThatFailsToCommitLeavesNothingInAnyOfThem() throws Exception {
    Future<AppendResult> first = held(SpaceId.of("zero"), TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<SpaceId> spaces = List.of(SpaceId.of("a"), SpaceId.of("b"), SpaceId.of("c"));
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      calls.add(submit(spaces.get(i % 3), batch(TestBlocks.feedId(), "s" + i, 2)));
    }
    Await.until("6 appends waiting", () -> authority.waitingAppends() == 6);
    faulty.fail(StorageFaultException.Kind.IO);
    store.open();

    Assertions.assertThrows(ExecutionException.class, () -> first.get(30, TimeUnit.SECONDS));
    for (Future<AppendResult> call : calls) {
      ExecutionException failed = Assertions.assertThrows(ExecutionException.class, () -> call.get(30, TimeUnit.SECONDS));
      assertInstanceOf(StorageFaultException.class, failed.getCause());
    }
    assertEquals(2, faulty.failedCommits(), "the six appends were one transaction");
    faulty.heal();
    for (SpaceId space : spaces) {
      assertEquals(0, maxPosition(space), "nothing of the failed group in space " + space.value());
      assertArrayEquals(new long[] {1}, append(space, TestBlocks.block(TestBlocks.feedId(), "next", 0)).positions(),
          "space " + space.value() + " starts at 1: the group claimed no position");
    }
  }

  @Test
  void oneSpacesAppendsInAGroupShareTheirStatementsAndTakeDensePositionsInArrivalOrder() throws Exception {
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.add(submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "c" + i, 0))));
      awaitWaiting(i + 1);
    }
    store.open();

    assertArrayEquals(new long[] {1}, first.get(30, TimeUnit.SECONDS).positions());
    for (int i = 0; i < calls.size(); i++) {
      assertArrayEquals(new long[] {i + 2}, calls.get(i).get(30, TimeUnit.SECONDS).positions(),
          "append " + i + " takes the next position in arrival order");
    }
    assertEquals(11, maxPosition(SPACE));
    assertEquals(2, store.writes(), "the ten waiting appends were committed in one transaction");
    for (String statement : List.of("FeedCatalog.namespaces", "FeedCatalog.count",
        "BlockLog.claimPositions", "BlockLog.stampReceipt", "BlockLog.insertAll")) {
      assertEquals(2, counting.calls(statement), statement + ": once for the held append, once for the group");
    }
  }

  @Test
  void aConflictingOneBlockAppendInAMergedGroupFailsAloneAndTheOthersKeepTheirOrder() throws Exception {
    FeedId shared = TestBlocks.feedId();
    append(SPACE, TestBlocks.block(shared, "a", 0, "one"));
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<Future<AppendResult>> good = new ArrayList<>();
    Future<AppendResult> conflicting = null;
    for (int i = 0; i < 5; i++) {
      if (i == 2) {
        conflicting = submit(SPACE, List.of(TestBlocks.block(shared, "a", 0, "two")));
      } else {
        good.add(submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "g" + i, 0))));
      }
      awaitWaiting(i + 1);
    }
    store.open();

    first.get(30, TimeUnit.SECONDS);
    Future<AppendResult> refusedCall = conflicting;
    ExecutionException refused = Assertions.assertThrows(ExecutionException.class,
        () -> refusedCall.get(30, TimeUnit.SECONDS));
    AppendConflictException conflict = assertInstanceOf(AppendConflictException.class, refused.getCause());
    assertEquals(List.of(TestBlocks.key(shared, "a", 0)), conflict.keys());
    for (int i = 0; i < good.size(); i++) {
      assertArrayEquals(new long[] {i + 3}, good.get(i).get(30, TimeUnit.SECONDS).positions(),
          "the other appends commit densely, in arrival order");
    }
    assertEquals(6, maxPosition(SPACE));
  }

  @Test
  void aKeyAppendedTwiceInOneGroupGetsTheFirstAppendsPosition() throws Exception {
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Block pushed = TestBlocks.block(TestBlocks.feedId(), "p", 0);
    Future<AppendResult> original = submit(SPACE, List.of(pushed));
    awaitWaiting(1);
    Future<AppendResult> between = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "b", 0)));
    awaitWaiting(2);
    Future<AppendResult> retried = submit(SPACE, List.of(pushed));
    awaitWaiting(3);
    Future<AppendResult> after = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "c", 0)));
    awaitWaiting(4);
    store.open();

    first.get(30, TimeUnit.SECONDS);
    assertArrayEquals(new long[] {2}, original.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {3}, between.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {2}, retried.get(30, TimeUnit.SECONDS).positions(), "the stored block's position");
    assertArrayEquals(new long[] {4}, after.get(30, TimeUnit.SECONDS).positions());
    assertEquals(4, maxPosition(SPACE), "the retried block was stored once and claimed no position");
  }

  @Test
  void theFirstAppendOfAGroupWhoseFeedsCrossTheLimitIsRefusedNamingTheSetting() throws Exception {
    store.close();
    start(ServerSettings.DEFAULTS.toBuilder().set(FEEDS_PER_SPACE, 4).build());
    FeedId firstFeed = TestBlocks.feedId();
    Future<AppendResult> first = held(SPACE, TestBlocks.block(firstFeed, "first", 0));
    Future<AppendResult> one = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "one", 0)));
    awaitWaiting(1);
    Future<AppendResult> two = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "two", 0)));
    awaitWaiting(2);
    Future<AppendResult> three = submit(SPACE, List.of(TestBlocks.block(TestBlocks.feedId(), "three", 0),
        TestBlocks.block(TestBlocks.feedId(), "three", 0)));
    awaitWaiting(3);
    Future<AppendResult> existing = submit(SPACE, List.of(TestBlocks.block(firstFeed, "first", 1)));
    awaitWaiting(4);
    store.open();

    first.get(30, TimeUnit.SECONDS);
    assertArrayEquals(new long[] {2}, one.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {3}, two.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {4}, existing.get(30, TimeUnit.SECONDS).positions(),
        "an append to a feed the space has fits after the refused one");
    ExecutionException refused = Assertions.assertThrows(ExecutionException.class,
        () -> three.get(30, TimeUnit.SECONDS));
    LimitExceededException limit = assertInstanceOf(LimitExceededException.class, refused.getCause());
    assertEquals(FEEDS_PER_SPACE.name(), limit.limitKey());
    assertEquals(5, limit.actual(), "three feeds stored and the two this append creates");
    assertEquals(4, maxPosition(SPACE));
  }

  @Test
  void oneBlockAppendsToTwoSpacesInAGroupRunOncePerSpaceEachInArrivalOrder() throws Exception {
    Future<AppendResult> first = held(SpaceId.of("zero"), TestBlocks.block(TestBlocks.feedId(), "first", 0));
    List<SpaceId> spaces = List.of(SpaceId.of("b"), SpaceId.of("a"));
    List<Future<AppendResult>> calls = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      calls.add(submit(spaces.get(i % 2), List.of(TestBlocks.block(TestBlocks.feedId(), "m" + i, 0))));
      awaitWaiting(i + 1);
    }
    store.open();

    first.get(30, TimeUnit.SECONDS);
    for (int i = 0; i < calls.size(); i++) {
      assertArrayEquals(new long[] {i / 2 + 1}, calls.get(i).get(30, TimeUnit.SECONDS).positions(),
          "space " + spaces.get(i % 2).value() + ": positions in the order its appends arrived");
    }
    for (SpaceId space : spaces) {
      assertEquals(4, maxPosition(space));
    }
    assertEquals(2, store.writes());
    assertEquals(3, counting.calls("BlockLog.claimPositions"), "once for the held append, once per space of the group");
    assertEquals(3, counting.calls("BlockLog.insertAll"), "once for the held append, once per space of the group");
  }

  @Test
  void appendsStillWaitingWhenCloseStopsWaitingForTheCommitInFlightFailAsShuttingDown() throws Exception {
    Future<AppendResult> first = held(SPACE, TestBlocks.block(TestBlocks.feedId(), "first", 0));
    Future<AppendResult> waiting = submit(SPACE, batch(TestBlocks.feedId(), "waiting", 2));
    awaitWaiting(1);

    authority.close(1); // the held commit outlasts the wait
    Future<AppendResult> later = submit(SPACE, batch(TestBlocks.feedId(), "later", 1));

    for (Future<AppendResult> refused : List.of(waiting, later)) {
      ExecutionException failure = Assertions.assertThrows(ExecutionException.class,
          () -> refused.get(30, TimeUnit.SECONDS));
      assertInstanceOf(ShuttingDownException.class, failure.getCause());
      assertEquals(ErrorCode.UNAVAILABLE, CallRefusal.of(failure.getCause()).code());
    }
    store.open();
    assertArrayEquals(new long[] {1}, first.get(30, TimeUnit.SECONDS).positions(), "the commit in flight completes");
    assertEquals(1, store.writes(), "nothing committed after the authority closed");
    assertEquals(1, maxPosition(SPACE));
  }

  private void awaitWaiting(int appends) {
    Await.until(appends + " appends waiting", () -> authority.waitingAppends() == appends);
  }

  /** Starts an append whose transaction waits at the store's gate, and waits until it does. */
  private Future<AppendResult> held(SpaceId space, Block block) throws InterruptedException {
    store.holdNextWrite();
    Future<AppendResult> call = submit(space, List.of(block));
    store.awaitHeld();
    return call;
  }

  private Future<AppendResult> submit(SpaceId space, List<Block> blocks) {
    return callers.submit(() -> authority.append(new AppendCommand(space, Optional.empty(), blocks)));
  }

  private AppendResult append(SpaceId space, Block block) {
    return authority.append(new AppendCommand(space, Optional.empty(), List.of(block)));
  }

  private static List<Block> batch(FeedId feed, String actor, int size) {
    List<Block> blocks = new ArrayList<>();
    blocks.add(TestBlocks.block(feed, actor, 0));
    for (int i = 1; i < size; i++) {
      blocks.add(TestBlocks.after(blocks.get(i - 1), actor, i));
    }
    return blocks;
  }

  private Optional<Long> storedPosition(Block block) {
    return store.read(tx -> tx.blocks().find(SPACE, block.key())).map(b -> b.position().value());
  }

  private long maxPosition(SpaceId space) {
    Position max = store.read(tx -> tx.blocks().maxPosition(space));
    return max.value();
  }
}
