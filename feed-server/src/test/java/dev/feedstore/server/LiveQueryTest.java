package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.proto.WireQueries;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gRPC LiveQuery over a real server and SQLite file: the snapshot as of the fence, then changes. */
class LiveQueryTest {
  static final LiveQuery OPEN_TASKS = LiveQuery.parse("space:s key:/id where /status = \"open\"");

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
  void theSnapshotIsAsOfTheFenceThenEachCommitIsOneBatchStampedWithItsPosition() {
    long fence = tasks.append("1:open", "2:open", "3:done", "4:open");
    LiveQueryView view = new LiveQueryView(OPEN_TASKS).open(t.async());
    LiveQueryEvent ack = view.next();
    assertTrue(ack.hasAck(), ack.toString());
    assertEquals(fence, ack.getPosition());
    assertEquals(0, ack.getAck().getFloor());
    assertFalse(ack.getAck().getResumed());
    view.awaitReady();
    assertEquals(QueryOracle.expected(t.blocking(), OPEN_TASKS, fence), view.rows());
    assertEquals(3, view.rows().size());

    long next = tasks.append("2:done", "5:open", "4:open");
    LiveQueryEvent changes = view.next();
    assertTrue(changes.hasChanges(), changes.toString());
    assertEquals(next, changes.getPosition(), "a batch is stamped with the end of its commit");
    ChangeBatch batch = WireQueries.toDomain(changes.getChanges());
    assertEquals(List.of("5"), batch.entered().stream().map(r -> r.id().toString()).toList());
    assertEquals(List.of("4"), batch.updated().stream().map(u -> u.current().id().toString()).toList(),
        "a new version of a row is an update");
    assertEquals(List.of("2"), batch.left().stream().map(r -> r.id().toString()).toList());
    assertEquals(QueryOracle.expected(t.blocking(), OPEN_TASKS, next), view.rows());
  }

  @Test
  void identicalQueriesShareOneStateWhateverTheirForm() {
    tasks.append("1:open", "2:done");
    LiveQueryView text = new LiveQueryView(OPEN_TASKS).open(t.async()).awaitReady();
    LiveQueryView json = new LiveQueryView(LiveQuery.parse(OPEN_TASKS.toJson())).open(t.async()).awaitReady();
    LiveQueryView other = new LiveQueryView(LiveQuery.parse("space:s key:/id where /status = \"done\""))
        .open(t.async()).awaitReady();
    assertEquals(3, t.server.openLiveQueries());
    assertEquals(2, t.server.sharedLiveQueries(), "one state per canonical query");

    long next = tasks.append("2:open");
    for (LiveQueryView view : List.of(text, json, other)) {
      view.awaitPosition(next);
    }
    assertEquals(text.rows(), json.rows());
    assertEquals(QueryOracle.expected(t.blocking(), OPEN_TASKS, next), text.rows());
    assertEquals(List.<Row>of(), other.rows());

    other.disconnect();
    Await.until("the last subscriber's state goes", () -> t.server.sharedLiveQueries() == 1);
  }
}
