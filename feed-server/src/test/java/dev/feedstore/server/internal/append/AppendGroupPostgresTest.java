package dev.feedstore.server.internal.append;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StreamCatalogContract;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.postgres.testing.PgRoundTrips;
import dev.feedstore.server.internal.streams.EndedStreams;
import dev.feedstore.server.internal.errors.AccessDeniedException;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.StreamClosedException;
import dev.feedstore.server.internal.spaces.Spaces;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.PostgresServer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A group of appends committed on PostgreSQL, formed by hand: the appends of each space run together
 * in the group's transaction, and one that fails is set aside while the others commit.
 */
class AppendGroupPostgresTest {
  private static final SpaceId A = SpaceId.of("a");
  private static final SpaceId B = SpaceId.of("b");

  PostgresStore store;
  Spaces spaces;
  AppendGroup group;

  @BeforeEach
  void open() {
    store = PostgresStore.open(EmbeddedDatabase.settings(PostgresServer.newDatabase()));
    ServerSettings settings = ServerSettings.DEFAULTS.toBuilder().set(FEEDS_PER_SPACE, 6).build();
    spaces = new Spaces(store, settings);
    group = new AppendGroup(store, spaces, settings, new EndedStreams(SpaceId.of(settings.get(STREAMS_SPACE))),
        Clock.systemUTC());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void eachSpacesAppendsCommitTogetherAndAFailingOneIsSetAside() {
    FeedId shared = TestBlocks.feedId();
    commit(List.of(pending(A, TestBlocks.block(shared, "x", 0, "one"))));
    Block retried = TestBlocks.block(TestBlocks.feedId(), "r", 0);
    List<PendingAppend> appends = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      appends.add(pending(A, TestBlocks.block(TestBlocks.feedId(), "a" + i, 0)));
      appends.add(pending(B, TestBlocks.block(TestBlocks.feedId(), "b" + i, 0)));
    }
    appends.add(2, pending(A, retried));
    appends.add(4, pending(A, TestBlocks.block(shared, "x", 0, "two")));
    appends.add(6, pending(A, retried));
    appends.add(pending(A, TestBlocks.block(TestBlocks.feedId(), "over", 0)));

    commit(appends);

    assertArrayEquals(new long[] {2}, appends.get(0).outcome().positions());
    assertArrayEquals(new long[] {3}, appends.get(2).outcome().positions(), "the first of the retried key");
    assertInstanceOf(AppendConflictException.class, assertThrows(RuntimeException.class,
        () -> appends.get(4).outcome()));
    assertArrayEquals(new long[] {3}, appends.get(6).outcome().positions(), "the retried key's stored position");
    assertArrayEquals(new long[] {4}, appends.get(3).outcome().positions());
    assertArrayEquals(new long[] {5}, appends.get(7).outcome().positions());
    assertArrayEquals(new long[] {6}, appends.get(9).outcome().positions());
    LimitExceededException limit = assertInstanceOf(LimitExceededException.class,
        assertThrows(RuntimeException.class, () -> appends.get(11).outcome()));
    assertEquals(FEEDS_PER_SPACE.name(), limit.limitKey());
    assertEquals(7, limit.actual(), "the six feeds of space a and the one this append creates");
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(new long[] {i + 1}, appends.get(new int[] {1, 5, 8, 10}[i]).outcome().positions(),
          "space b, dense from 1 in arrival order");
    }
    assertEquals(6, store.read(tx -> tx.blocks().maxPosition(A)).value());
    assertEquals(4, store.read(tx -> tx.blocks().maxPosition(B)).value());
  }

  @Test
  void anAppendToTheFeedOfAClosedStreamIsRefusedAloneAndTheOthersCommit() {
    SpaceId streams = SpaceId.of(STREAMS_SPACE.defaultValue());
    StreamRecord done = StreamCatalogContract.draft("done", 0, OptionalLong.empty(), 1);
    store.write(tx -> tx.streams().insert(done.withClosed(0, Optional.empty())));
    List<PendingAppend> appends = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      appends.add(pending(streams, TestBlocks.block(TestBlocks.feedId(), "g" + i, 0)));
    }
    appends.add(1, pending(streams, TestBlocks.block(done.feedId(), "replica", 0)));

    commit(appends);

    StreamClosedException closed = assertInstanceOf(StreamClosedException.class,
        assertThrows(RuntimeException.class, () -> appends.get(1).outcome()));
    assertEquals(List.of(done.feedId()), closed.feeds());
    for (int i : new int[] {0, 2, 3}) {
      appends.get(i).outcome();
    }
    assertEquals(3, store.read(tx -> tx.blocks().maxPosition(streams)).value(), "the three others, nothing of it");
  }

  @Test
  void anAppendWhoseCallerMayNotWriteToItsFeedsIsRefusedAloneAndTheOthersCommit() {
    Namespace secret = new Namespace("secret");
    FeedId held = TestBlocks.feedId();
    FeedId created = TestBlocks.feedId();
    commit(List.of(new PendingAppend(spaces.acquire(A), Optional.of(secret), List.of(TestBlocks.block(held, "x", 0)))));
    FeedWriteCheck notSecret = (space, feeds) -> {
      if (feeds.containsValue(Optional.of(secret))) {
        throw new AccessDeniedException(true, "no write grant for namespace 'secret'");
      }
    };
    List<PendingAppend> appends = List.of(
        pending(A, TestBlocks.block(TestBlocks.feedId(), "a", 0)),
        new PendingAppend(spaces.acquire(A), Optional.empty(), List.of(TestBlocks.block(held, "y", 0)), notSecret),
        new PendingAppend(spaces.acquire(A), Optional.of(secret), List.of(TestBlocks.block(created, "z", 0)),
            notSecret),
        pending(B, TestBlocks.block(TestBlocks.feedId(), "b", 0)));

    commit(appends);

    assertArrayEquals(new long[] {2}, appends.get(0).outcome().positions());
    assertArrayEquals(new long[] {1}, appends.get(3).outcome().positions());
    for (int refused : new int[] {1, 2}) {
      assertInstanceOf(AccessDeniedException.class, assertThrows(RuntimeException.class,
          () -> appends.get(refused).outcome()), "append " + refused);
    }
    assertEquals(2, store.read(tx -> tx.blocks().maxPosition(A)).value(), "nothing of the refused appends");
    assertEquals(Optional.empty(), store.read(tx -> tx.feeds().find(A, created)),
        "the feed the refused append would have created is not stored");
  }

  @Test
  void aGroupOfAppendsToSeveralSpacesTakesOneRoundTripToTheDatabaseCommitIncluded() {
    String url = PostgresServer.newDatabase();
    String database = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
    try (PgRoundTrips trips = new PgRoundTrips(EmbeddedDatabase.shared().port());
        PostgresStore counted = PostgresStore.open(EmbeddedDatabase.settings(trips.url(database)).withPoolSize(2))) {
      ServerSettings settings = ServerSettings.DEFAULTS;
      Spaces countedSpaces = new Spaces(counted, settings);
      AppendGroup countedGroup = new AppendGroup(counted, countedSpaces, settings,
          new EndedStreams(SpaceId.of(settings.get(STREAMS_SPACE))), Clock.systemUTC());
      FeedId inA = TestBlocks.feedId();
      FeedId inB = TestBlocks.feedId();
      countedGroup.commit(List.of(
          new PendingAppend(countedSpaces.acquire(A), Optional.empty(), List.of(TestBlocks.block(inA, "w", 0))),
          new PendingAppend(countedSpaces.acquire(B), Optional.empty(), List.of(TestBlocks.block(inB, "w", 0)))))
          .run();
      List<PendingAppend> appends = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        appends.add(new PendingAppend(countedSpaces.acquire(A), Optional.empty(), List.of(
            TestBlocks.block(inA, "a" + i, 0), TestBlocks.block(TestBlocks.feedId(), "a" + i, 0))));
        appends.add(new PendingAppend(countedSpaces.acquire(B), Optional.empty(), List.of(
            TestBlocks.block(inB, "b" + i, 0), TestBlocks.block(inB, "b" + i, 1))));
      }
      int before = trips.count();

      countedGroup.commit(appends).run();

      List<String> made = trips.since(before);
      assertEquals(1, made.size(), made.size() + " round trips: " + String.join("\n", made));
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(new long[] {2 + 2 * i, 3 + 2 * i}, appends.get(2 * i).outcome().positions());
        assertArrayEquals(new long[] {2 + 2 * i, 3 + 2 * i}, appends.get(2 * i + 1).outcome().positions());
      }

      PendingAppend lone = new PendingAppend(countedSpaces.acquire(A), Optional.empty(),
          List.of(TestBlocks.block(inA, "lone", 0)));
      int beforeLone = trips.count();
      countedGroup.commit(List.of(lone)).run();

      List<String> alone = trips.since(beforeLone);
      assertEquals(1, alone.size(), "a group of one: " + String.join("\n", alone));
      assertArrayEquals(new long[] {8}, lone.outcome().positions());
      assertEquals(8, counted.read(tx -> tx.blocks().maxPosition(A)).value(), "committed when answered");
    }
  }

  private PendingAppend pending(SpaceId space, Block block) {
    return new PendingAppend(spaces.acquire(space), Optional.empty(), List.of(block));
  }

  private void commit(List<PendingAppend> appends) {
    group.commit(appends).run();
  }
}
