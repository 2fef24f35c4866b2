package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.testing.Await;
import io.grpc.StatusRuntimeException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL database restored from an older copy under a running server while live queries are
 * open: the server hears it when its listening connection comes back, and every live query, over
 * gRPC and over Server-Sent Events, gets a reset and a fresh snapshot as of the restored history,
 * never silence (it would otherwise keep rows the database no longer holds, and resume tokens past
 * its highest position); changes committed after the restore follow as usual.
 */
class PostgresLiveQueryRestoreTest {
  private static final String TEXT = "key:/id where /status = \"open\"";
  private static final LiveQuery OPEN = LiveQuery.parse("space:s " + TEXT);
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void openLiveQueriesResetToAFreshSnapshotWhenTheDatabaseIsRestoredUnderThem() {
    Path data = dir.resolve("pgdata");
    Path copy = dir.resolve("pgdata-copy");
    EmbeddedDatabase database = EmbeddedDatabase.start(data, 0);
    int port = database.port();
    try (PostgresServer server = PostgresServer.withHttp(database.url("postgres"))) {
      Tasks tasks = new Tasks(server.blocking());
      assertEquals(3, tasks.append("1:open", "2:open", "3:done"));
      database.close();
      EmbeddedDatabase.copyData(data, copy); // a backup, taken while the database is stopped
      database = EmbeddedDatabase.start(data, port);
      awaitServing(server);
      assertEquals(5, tasks.append("2:done", "4:open"));

      LiveQueryView grpc = new LiveQueryView(OPEN).open(server.async()).awaitReady();
      assertEquals(5, grpc.position());
      assertEquals(QueryOracle.expected(server.blocking(), OPEN, 5), grpc.rows());
      try (SseReader sse = SseReader.open(server.http(), "/v1/spaces/s/live?q="
          + URLEncoder.encode(TEXT, StandardCharsets.UTF_8))) {
        SseLiveQueryTest.Held held = new SseLiveQueryTest.Held();
        assertEquals(5, held.untilReady(sse).get("position").getAsLong());
        assertEquals(expected(server, 5), held.rows);

        database.close();
        EmbeddedDatabase.deleteData(data);
        EmbeddedDatabase.copyData(copy, data); // the restore: positions 4 and 5 are gone
        database = EmbeddedDatabase.start(data, port);

        LiveQueryEvent reset = grpc.events().next(WAIT);
        grpc.apply(reset);
        assertTrue(reset.hasReset(), "a reset, not silence: " + reset);
        assertTrue(reset.getReset().getReason().contains("history went back"), reset.getReset().getReason());
        assertEquals(3, reset.getPosition(), "the fresh snapshot is as of the restored highest position");
        grpc.awaitReady();
        assertEquals(1, grpc.resets);
        assertEquals(2, grpc.snapshots, "one snapshot before the restore, one after");
        assertEquals(QueryOracle.expected(server.blocking(), OPEN, 3), grpc.rows());
        assertEquals(2, grpc.rows().size(), "2 is open again, 4 is gone");

        SseReader.Event sseReset = sse.next(WAIT);
        assertEquals("reset", sseReset.name(), sseReset.toString());
        assertEquals(3, sseReset.json().get("position").getAsLong(), sseReset.toString());
        held.apply(sseReset);
        untilReady(sse, held);
        assertEquals(expected(server, 3), held.rows);

        long after = new Tasks(server.blocking()).append("5:open");
        grpc.awaitPosition(after);
        assertEquals(QueryOracle.expected(server.blocking(), OPEN, after), grpc.rows());
        SseReader.Event changes = sse.next(WAIT);
        assertEquals("changes", changes.name(), changes.toString());
        held.apply(changes);
        assertEquals(expected(server, after), held.rows);
      }
    } finally {
      database.close();
    }
  }

  /** Applies the events of a fresh snapshot until {@code ready}. */
  private static void untilReady(SseReader sse, SseLiveQueryTest.Held held) {
    SseReader.Event event;
    while (!(event = sse.next(WAIT)).name().equals("ready")) {
      held.apply(event);
    }
  }

  /** The rows of {@link #OPEN} as of {@code position}: document key to the position of its version. */
  private static Map<String, Long> expected(PostgresServer server, long position) {
    Map<String, Long> rows = new TreeMap<>();
    for (Row row : QueryOracle.expected(server.blocking(), OPEN, position)) {
      rows.put(row.id().toJson().toString(), row.version().position().value());
    }
    return rows;
  }

  /** Waits until the server reads the database again after a restart. */
  private static void awaitServing(PostgresServer server) {
    Await.until("the server reads the database again", WAIT, () -> {
      try {
        server.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build());
        return true;
      } catch (StatusRuntimeException e) {
        return false;
      }
    });
  }
}
