package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.Tasks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Live queries on two servers over one PostgreSQL database: a change committed through one reaches
 * a live query on the other, and a client resumes on either with the token the other gave it.
 */
class PostgresLiveQueryTest {
  static final LiveQuery TOP_OPEN = LiveQuery.parse("space:s key:/id where /status = \"open\" order /rank limit 2");

  PostgresServer a;
  PostgresServer b;

  @AfterEach
  void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
  }

  @Test
  void aChangeCommittedThroughOneServerReachesALiveQueryOnTheOtherAndResumesThere() {
    String url = PostgresServer.newDatabase();
    a = PostgresServer.on(url);
    b = PostgresServer.on(url);
    Tasks tasks = new Tasks(a.blocking());
    tasks.append("1:open:5", "2:open:3");

    LiveQueryView view = new LiveQueryView(TOP_OPEN).open(b.async()).awaitReady();
    long next = tasks.append("3:open:1", "1:done:5");
    view.awaitPosition(next);
    assertEquals(QueryOracle.expected(a.blocking(), TOP_OPEN, next), view.rows());

    view.disconnect();
    long last = tasks.append("4:open:0");
    view.open(a.async()).awaitPosition(last);
    assertEquals(1, view.acksResumed, "resumed on the other server: the space's token is the store's");
    assertEquals(1, view.snapshots);
    assertEquals(QueryOracle.expected(b.blocking(), TOP_OPEN, last), view.rows());
  }
}
