package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Tasks;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reconnecting to a live query with its last resume token: the changes after it, or a reset. */
class LiveQueryResumeTest {
  static final LiveQuery TOP_OPEN = LiveQuery.parse("space:s key:/id where /status = \"open\" order /rank limit 3");

  @TempDir Path dir;
  TestServer t;
  Tasks tasks;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db"))
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build()).start();
    tasks = new Tasks(t.blocking());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aResumedStreamGetsExactlyTheChangesAfterItsTokenAndNoSnapshot() {
    tasks.append("1:open:5", "2:open:3", "3:open:9", "4:done:1");
    LiveQueryView view = new LiveQueryView(TOP_OPEN).open(t.async()).awaitReady();
    long seen = tasks.append("4:open:1");
    view.awaitPosition(seen);
    view.disconnect();

    tasks.append("2:done:3");
    tasks.append("5:open:0", "1:open:6");
    long last = tasks.append("6:open:2");
    view.open(t.async());
    LiveQueryEvent ack = view.next();
    assertTrue(ack.getAck().getResumed(), ack.toString());
    assertEquals(last, ack.getPosition(), "the fence is where the shared query stands");
    view.awaitPosition(last);
    assertEquals(1, view.snapshots, "no second snapshot");
    assertEquals(0, view.resets);
    assertEquals(QueryOracle.expected(t.blocking(), TOP_OPEN, last), view.rows());

    long after = tasks.append("6:done:2");
    view.awaitPosition(after);
    assertEquals(QueryOracle.expected(t.blocking(), TOP_OPEN, after), view.rows(), "and live from there");
  }

  @Test
  void aTokenOfAnotherStoreIsAResetAndAFreshSnapshot() {
    long at = tasks.append("1:open:5", "2:open:3");
    LiveQueryView view = new LiveQueryView(TOP_OPEN).open(t.async()).awaitReady();
    view.disconnect();
    String token = view.token();
    view.token(token.substring(0, token.lastIndexOf('.') + 1) + "another-store");

    view.open(t.async());
    LiveQueryEvent ack = view.next();
    assertFalse(ack.getAck().getResumed());
    LiveQueryEvent reset = view.next();
    assertTrue(reset.hasReset(), reset.toString());
    assertTrue(reset.getReset().getReason().contains("another store"), reset.getReset().getReason());
    view.awaitReady();
    assertEquals(2, view.snapshots);
    assertEquals(QueryOracle.expected(t.blocking(), TOP_OPEN, at), view.rows());
  }

  @Test
  void aCompactionSinceTheTokenIsAReset() {
    tasks.append("1:open:5", "2:open:3");
    LiveQueryView view = new LiveQueryView(TOP_OPEN).open(t.async()).awaitReady();
    view.disconnect();
    long at = tasks.append("3:open:1", "1:done:5");
    t.blocking().compact(CompactRequest.newBuilder().setRequestId("c").setSpaceId("s").setUpTo(2).build());

    view.open(t.async());
    assertFalse(view.next().getAck().getResumed());
    LiveQueryEvent reset = view.next();
    assertTrue(reset.getReset().getReason().contains("compacted"), reset.toString());
    assertEquals(2, reset.getReset().getFloor());
    view.awaitReady();
    assertEquals(QueryOracle.expected(t.blocking(), TOP_OPEN, at), view.rows());
  }

  @Test
  void aCompactionUnderAnOpenQueryTakesOutTheDocumentsWhoseVersionsWentWithIt() {
    LiveQuery all = LiveQuery.parse("space:s key:/id");
    tasks.append("1:open:5", "2:open:3");
    long at = tasks.append("2:done:3");
    LiveQueryView view = new LiveQueryView(all).open(t.async()).awaitReady();
    assertEquals(2, view.rows().size());

    t.blocking().compact(CompactRequest.newBuilder().setRequestId("c").setSpaceId("s").setUpTo(2).build());
    long next = tasks.append("3:open:1");
    view.awaitPosition(next);
    while (view.rows().size() != 2) {
      view.next();
    }
    assertEquals(QueryOracle.expected(t.blocking(), all, next), view.rows(),
        "document 1, whose only version is below the floor, left; document 2 stays with its version at " + at);
  }
}
