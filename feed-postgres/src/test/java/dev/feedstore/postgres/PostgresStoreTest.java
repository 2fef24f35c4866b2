package dev.feedstore.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.IncompatibleStoreException;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.testing.Await;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** What only a store several processes share must do: every store here is a process of its own. */
class PostgresStoreTest {
  private static final SpaceId SPACE = new SpaceId("shared");

  @Test
  void storesOnOneDatabaseClaimEveryPositionOnceAndDensely() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    List<PostgresStore> stores = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      for (int i = 0; i < 3; i++) {
        stores.add(PostgresStore.open(EmbeddedDatabase.settings(url)));
      }
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        PostgresStore store = stores.get(w % 3);
        results.add(pool.submit(() -> {
          List<Long> firsts = new ArrayList<>();
          for (int i = 0; i < 40; i++) {
            firsts.add(store.write(tx -> tx.blocks().claimPositions(SPACE, 2)).value() + 1);
          }
          return firsts;
        }));
      }
      SortedSet<Long> claimed = new TreeSet<>();
      for (Future<List<Long>> result : results) {
        for (long first : result.get()) {
          assertTrue(claimed.add(first) && claimed.add(first + 1), "position " + first + " was claimed twice");
        }
      }
      assertEquals(LongStream.rangeClosed(1, 6 * 40 * 2).boxed().toList(), List.copyOf(claimed));
    } finally {
      pool.shutdownNow();
      stores.forEach(PostgresStore::close);
    }
  }

  @Test
  void storesOnOneDatabaseAppendIntoOneDenseHistoryWhoseChainAndReceiveTimesFollowThePositions() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    SpaceId other = new SpaceId("z-other");
    List<FeedId> feeds = List.of(TestBlocks.feedId(), TestBlocks.feedId(), TestBlocks.feedId(), TestBlocks.feedId());
    List<PostgresStore> stores = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      for (int i = 0; i < 3; i++) {
        stores.add(PostgresStore.open(EmbeddedDatabase.settings(url)));
      }
      List<Future<?>> results = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        PostgresStore store = stores.get(w % 3);
        String actor = "w" + w;
        results.add(pool.submit(() -> {
          for (int i = 0; i < 15; i++) {
            FeedId feed = feeds.get(i % 4);
            List<Block> blocks = List.of(TestBlocks.block(feed, actor, 2L * i), TestBlocks.block(feed, actor, 2L * i + 1));
            long now = 1_000_000 - 1_000L * i; // each writer's clock goes back
            store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE, Map.of(feed, Optional.empty()), blocks, now),
                new SpaceAppend(other, Map.of(feed, Optional.empty()), blocks, now))));
          }
          return null;
        }));
      }
      for (Future<?> result : results) {
        result.get();
      }
      for (SpaceId space : List.of(SPACE, other)) {
        List<Block> history = stores.get(0).read(tx -> tx.blocks().after(space, Scope.WHOLE_SPACE, Position.NONE, 1_000));
        assertEquals(6 * 15 * 2, history.size());
        long chain = HistoryChain.START;
        long received = 0;
        for (int p = 0; p < history.size(); p++) {
          Block block = history.get(p);
          assertEquals(Position.of(p + 1), block.position(), "dense positions in " + space);
          chain = HistoryChain.next(chain, block);
          long at = chain;
          assertEquals(OptionalLong.of(at), stores.get(1).read(tx -> tx.blocks().chainAt(space, block.position())),
              "the chain at " + block.position() + " in " + space);
          assertTrue(block.receivedAt().getAsLong() >= received, "receive times never go back");
          received = block.receivedAt().getAsLong();
        }
        assertEquals(6 * 15 * 2, feeds.stream().mapToLong(feed -> stores.get(2).read(tx -> tx.feeds()
            .find(space, feed)).orElseThrow().blockCount()).sum(), "every block counted in its feed");
        assertEquals(4L, stores.get(2).<Long>read(tx -> tx.feeds().count(space)), "each feed created once");
      }
    } finally {
      pool.shutdownNow();
      stores.forEach(PostgresStore::close);
    }
  }

  @Test
  void anAppendIsToldToTheOtherStoresOfTheDatabase() {
    String url = EmbeddedDatabase.shared().newDatabase();
    try (PostgresStore writer = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore reader = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      Recorder heard = listening(reader);
      reader.follow(SPACE);
      FeedId feed = TestBlocks.feedId();

      writer.write(tx -> tx.append(List.of(new SpaceAppend(SPACE, Map.of(feed, Optional.empty()),
          List.of(TestBlocks.block(feed, "a", 0), TestBlocks.block(feed, "a", 1)), 1))));

      Await.until("the reader hears the append", () -> Position.of(2).equals(heard.highest.get(SPACE)));
    }
  }

  @Test
  void aCommitIsToldToTheOtherStoresOfTheDatabaseNotToItsOwn() {
    String url = EmbeddedDatabase.shared().newDatabase();
    try (PostgresStore writer = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore reader = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      Recorder heardByReader = new Recorder();
      Recorder heardByWriter = new Recorder();
      reader.listen(heardByReader);
      writer.listen(heardByWriter);
      Await.until("both listen", () -> heardByReader.missed.get() > 0 && heardByWriter.missed.get() > 0);
      for (PostgresStore store : List.of(reader, writer)) {
        store.follow(SPACE);
        store.follow(new SpaceId("other"));
      }

      writer.write(tx -> tx.blocks().claimPositions(SPACE, 3));
      writer.write(tx -> tx.blocks().claimPositions(SPACE, 2));
      assertThrows(IllegalStateException.class, () -> writer.write(tx -> {
        tx.blocks().claimPositions(SPACE, 10);
        throw new IllegalStateException("rolled back: told to nobody");
      }));
      writer.write(tx -> tx.blocks().claimPositions(new SpaceId("other"), 1));

      Await.until("the reader hears both spaces", () -> heardByReader.highest.containsKey(new SpaceId("other")));
      assertEquals(Position.of(5), heardByReader.highest.get(SPACE));
      assertEquals(Map.of(), heardByWriter.highest, "a store is not told of its own commits");
    }
  }

  @Test
  void aLostListeningConnectionComesBackAndSaysCommitsMayHaveBeenMissed() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    try (PostgresStore writer = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore reader = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      Recorder heard = new Recorder();
      reader.follow(SPACE); // before listening: the first connection listens to it
      reader.listen(heard);
      Await.until("it listens", () -> heard.missed.get() == 1);
      try (Connection c = DriverManager.getConnection(url); Statement statement = c.createStatement()) {
        statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            + " WHERE application_name = 'feed-server listener' AND datname = current_database()");
      }
      Await.until("it listens again", Duration.ofSeconds(20), () -> heard.missed.get() == 2);
      writer.write(tx -> tx.blocks().claimPositions(SPACE, 4));
      Await.until("it hears commits again", () -> Position.of(4).equals(heard.highest.get(SPACE)));
    }
  }

  @Test
  void aStoreCarriesOnWhenItsDatabaseComesBackAfterARestart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path data = dir.resolve("pgdata");
    EmbeddedDatabase database = EmbeddedDatabase.start(data, 0);
    int port = database.port();
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(database.url("postgres")))) {
      store.write(tx -> tx.blocks().claimPositions(SPACE, 1));
      database.close();
      StorageFaultException down = assertThrows(StorageFaultException.class,
          () -> store.write(tx -> tx.blocks().claimPositions(SPACE, 1)));
      assertEquals(StorageFaultException.Kind.UNREACHABLE, down.kind(), down.getMessage());

      database = EmbeddedDatabase.start(data, port);
      EmbeddedDatabase up = database;
      Await.until("writes succeed again", Duration.ofSeconds(30), () -> {
        try {
          return store.write(tx -> tx.blocks().claimPositions(SPACE, 1)).equals(Position.of(1));
        } catch (StorageFaultException e) {
          return false;
        }
      });
      assertEquals(Position.of(2), store.write(tx -> tx.blocks().claimPositions(SPACE, 0)), "nothing was lost");
      up.close();
    }
  }

  @Test
  void aDumpOfTheDatabaseKeepsItsTokensAndANewDatabaseHasOthers() {
    String url = EmbeddedDatabase.shared().newDatabase();
    ServerToken token;
    try (PostgresStore store = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      token = store.write(tx -> tx.serverTokens().findOrCreate(SPACE));
    }
    try (PostgresStore again = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore other = PostgresStore.open(EmbeddedDatabase.settings(EmbeddedDatabase.shared().newDatabase()))) {
      assertEquals(Optional.of(token), again.read(tx -> tx.serverTokens().find(SPACE)));
      assertEquals(token, again.read(tx -> tx.serverTokens().tokenOf(SPACE)));
      assertTrue(!token.equals(other.read(tx -> tx.serverTokens().tokenOf(SPACE))), "a new database, new tokens");
    }
  }

  @Test
  void aDatabaseOfAnotherApplicationIsRefusedAndLeftAsItWas() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    try (Connection c = DriverManager.getConnection(url); Statement statement = c.createStatement()) {
      statement.execute("CREATE TABLE invoices (id integer)");
    }
    IncompatibleStoreException e = assertThrows(IncompatibleStoreException.class,
        () -> PostgresStore.open(EmbeddedDatabase.settings(url)));
    assertTrue(e.getMessage().contains("another application"), e.getMessage());
    try (Connection c = DriverManager.getConnection(url); Statement statement = c.createStatement();
        var rs = statement.executeQuery("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")) {
      rs.next();
      assertEquals(1, rs.getInt(1), "nothing was created");
    }
  }

  @Test
  void aDatabaseThatCannotBeReachedIsAFaultNamingIt() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    PostgresSettings settings = new PostgresSettings("jdbc:postgresql://127.0.0.1:" + closedPort + "/feeds",
        Optional.of("postgres"), Optional.empty(), 2, 1_000);
    StorageFaultException e = assertThrows(StorageFaultException.class, () -> PostgresStore.open(settings));
    assertEquals(StorageFaultException.Kind.UNREACHABLE, e.kind());
    assertTrue(e.getMessage().contains("127.0.0.1:" + closedPort + "/feeds cannot be reached"), e.getMessage());
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutRepeatingIt() {
    InvalidValueException e = assertThrows(InvalidValueException.class,
        () -> PostgresSettings.of("jdbc:postgresql://db/feeds?user=feeds&password=hunter2"));
    assertTrue(e.getMessage().contains("PGPASSWORD") && !e.getMessage().contains("hunter2"), e.getMessage());
    assertThrows(InvalidValueException.class, () -> PostgresSettings.of("jdbc:mysql://db/feeds"));
    assertThrows(InvalidValueException.class, () -> PostgresSettings.of("jdbc:postgresql://db/feeds").withPoolSize(1));
  }

  @Test
  void aStoreIsToldOnlyOfTheSpacesItFollowsFromTheMomentFollowReturns() {
    String url = EmbeddedDatabase.shared().newDatabase();
    try (PostgresStore writer = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore reader = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      Recorder heard = listening(reader);
      SpaceId followed = new SpaceId("Followed.Space:1-A"); // any of the characters of an id, either case
      SpaceId elsewhere = new SpaceId("elsewhere");
      FeedId feed = TestBlocks.feedId();
      reader.follow(followed);

      // Right after follow returns, with no wait: each way of committing (the append function in its
      // own transaction, the claim of positions in one) is heard on the space's channel.
      appendAllNew(writer, elsewhere, feed, 0);
      appendAllNew(writer, followed, feed, 0);
      Await.until("the reader hears the followed space", () -> Position.of(1).equals(heard.highest.get(followed)));
      writer.write(tx -> tx.blocks().claimPositions(elsewhere, 5));
      writer.write(tx -> tx.blocks().claimPositions(followed, 2));
      Await.until("the reader hears the claim", () -> Position.of(3).equals(heard.highest.get(followed)));
      // Notices come in commit order, so the other space's, committed first each time, would have come already.
      assertEquals(Map.of(followed, Position.of(3)), heard.highest, "only the followed space is told");

      reader.unfollow(followed);
      SpaceId next = new SpaceId("next");
      reader.follow(next); // its change is made with or after the unfollow's
      writer.write(tx -> tx.blocks().claimPositions(followed, 1));
      writer.write(tx -> tx.blocks().claimPositions(next, 1));
      Await.until("the reader hears the space it follows now", () -> heard.highest.containsKey(next));
      assertEquals(Position.of(3), heard.highest.get(followed), "a space no longer followed is not told");
    }
  }

  private static void appendAllNew(PostgresStore store, SpaceId space, FeedId feed, long sequence) {
    assertTrue(store.appendAllNew(List.of(new SpaceAppend(space, Map.of(feed, Optional.empty()),
        List.of(TestBlocks.block(feed, "a", sequence)), 1)), 1_000).isPresent());
  }

  /** A recorder told by {@code reader}, once its listening connection is open. */
  private static Recorder listening(PostgresStore reader) {
    Recorder heard = new Recorder();
    reader.listen(heard);
    Await.until("the reader listens", () -> heard.missed.get() > 0);
    return heard;
  }

  /** Records what a store tells. */
  private static final class Recorder implements CommitListener {
    final Map<SpaceId, Position> highest = new ConcurrentHashMap<>();
    final AtomicInteger missed = new AtomicInteger();

    @Override
    public void committed(SpaceId spaceId, Position position) {
      highest.merge(spaceId, position, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }

    @Override
    public void missedCommits() {
      missed.incrementAndGet();
    }
  }
}
