package dev.feedstore.postgres;

import static dev.feedstore.core.store.StreamCatalogContract.draft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StreamRecord;
import dev.feedstore.core.testing.Await;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Writes of one stream's record through two stores on one database (two processes) wait for each
 * other, so the second reads what the first committed; reads do not wait.
 */
class PostgresStreamLocksTest {
  private static final SpaceId SPACE = new SpaceId("streams");

  @Test
  void aWriteOfAStreamWaitsForAnotherProcessesWriteOfItAndSeesWhatItCommitted() throws Exception {
    String url = EmbeddedDatabase.shared().newDatabase();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (PostgresStore a = PostgresStore.open(EmbeddedDatabase.settings(url));
        PostgresStore b = PostgresStore.open(EmbeddedDatabase.settings(url))) {
      a.write(tx -> tx.streams().insert(draft("shared", 0, OptionalLong.empty(), 1)));
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Future<?> first = pool.submit(() -> a.write(tx -> {
        StreamRecord record = tx.streams().find(SPACE, "shared").orElseThrow();
        tx.streams().update(record.withStreamSeq("0001"));
        holding.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return null;
      }));
      holding.await(30, TimeUnit.SECONDS);
      Future<Optional<String>> second = pool.submit(() ->
          b.write(tx -> tx.streams().find(SPACE, "shared").orElseThrow().streamSeq()));

      Await.until("the second write waits for the first one's lock of the stream", () -> waitingForLocks(url) == 1);
      assertFalse(second.isDone());
      assertEquals(Optional.empty(), b.read(tx -> tx.streams().find(SPACE, "shared").orElseThrow().streamSeq()),
          "a read does not wait, and sees what was committed");
      release.countDown();
      first.get(30, TimeUnit.SECONDS);
      assertEquals(Optional.of("0001"), second.get(30, TimeUnit.SECONDS));
    } finally {
      pool.shutdownNow();
    }
  }

  /** How many lock requests of the database's sessions wait now. */
  private static long waitingForLocks(String url) {
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
