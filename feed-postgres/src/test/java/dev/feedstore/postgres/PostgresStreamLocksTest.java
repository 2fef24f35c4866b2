package dev.feedstore.postgres;

import static dev.feedstore.core.store.StreamCatalogContract.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.testing.Await;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes of one stream's record through two stores on one database (two processes) wait for each
 * other, whether they find the stream by name or get it by id, so the second reads what the first
 * committed; reads do not wait.
 */
class PostgresStreamLocksTest {
  private static final SpaceId SPACE = new SpaceId("streams");

  private final ExecutorService pool = Executors.newFixedThreadPool(2);
  private final CountDownLatch holding = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private String url;
  private PostgresStore a;
  private PostgresStore b;

  @BeforeEach
  void open() {
    url = EmbeddedDatabase.shared().newDatabase();
    a = PostgresStore.open(EmbeddedDatabase.settings(url));
    b = PostgresStore.open(EmbeddedDatabase.settings(url));
  }

  @AfterEach
  void close() {
    release.countDown();
    pool.shutdownNow();
    a.close();
    b.close();
  }

  @Test
  void aWriteThatFindsAStreamWaitsForAnotherProcessesWriteOfItAndSeesWhatItCommitted() throws Exception {
    a.write(tx -> tx.streams().insert(draft("shared", 0, OptionalLong.empty(), 1)));
    Future<?> first = hold(tx -> tx.streams().update(tx.streams().find(SPACE, "shared").orElseThrow()
        .withStreamSeq("0001")));
    Future<Optional<String>> second = waiting(() ->
        b.write(tx -> tx.streams().find(SPACE, "shared").orElseThrow().streamSeq()));

    assertEquals(Optional.empty(), b.read(tx -> tx.streams().find(SPACE, "shared").orElseThrow().streamSeq()),
        "a read does not wait, and sees what was committed");
    release.countDown();
    first.get(30, TimeUnit.SECONDS);
    assertEquals(Optional.of("0001"), second.get(30, TimeUnit.SECONDS));
  }

  @Test
  void aWriteThatGetsAStreamByIdWaitsForAnotherProcessesWriteOfItAndSeesWhatItCommitted() throws Exception {
    long source = a.write(tx -> tx.streams().insert(draft("source", 0, OptionalLong.empty(), 1)));
    Future<?> first = hold(tx -> tx.streams().update(tx.streams().get(source).orElseThrow()
        .withState(StreamRecord.State.DELETED)));
    Future<StreamRecord.State> second = waiting(() -> b.write(tx -> tx.streams().get(source).orElseThrow().state()));

    release.countDown();
    first.get(30, TimeUnit.SECONDS);
    assertEquals(StreamRecord.State.DELETED, second.get(30, TimeUnit.SECONDS));
  }

  /** Runs {@code work} in a write of store a that stays open until {@link #release}; returns once it ran. */
  private Future<?> hold(Consumer<AuthorityTransaction> work) throws InterruptedException {
    Future<?> held = pool.submit(() -> a.write(tx -> {
      work.accept(tx);
      holding.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    }));
    holding.await(30, TimeUnit.SECONDS);
    return held;
  }

  /** Starts {@code write} and returns once it waits for a lock (and has not returned). */
  private <T> Future<T> waiting(Callable<T> write) {
    Future<T> started = pool.submit(write);
    Await.until("the second write waits for the first one's lock of the stream", () -> waitingForLocks() == 1);
    assertFalse(started.isDone());
    return started;
  }

  /** How many lock requests of the database's sessions wait now. */
  private long waitingForLocks() {
    try (Connection c = DriverManager.getConnection(url); Statement statement = c.createStatement();
        ResultSet rs = statement.executeQuery("SELECT count(*) FROM pg_locks l JOIN pg_database d"
            + " ON d.oid = l.database WHERE d.datname = current_database() AND NOT l.granted")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
