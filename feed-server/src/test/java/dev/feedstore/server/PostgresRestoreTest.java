package dev.feedstore.server;

import static dev.feedstore.server.testing.WatchEvents.positionsUpTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.rpc.ErrorInfo;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.postgres.testing.EmbeddedDatabase;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL database restored from an older copy of its data directory under a running server:
 * the server hears it when its listening connection comes back, and its open Watch streams and
 * event streams end saying the history went back (a stream that went on would follow positions the
 * database hands out again, and report a highest position that no longer exists). A client that
 * connects again from its cursor finds the database's highest position below it: a replica's
 * rollback signal.
 */
class PostgresRestoreTest {
  private static final String SPACE = "s";

  @TempDir Path dir;
  private final FeedId feed = TestBlocks.feedId();

  @Test
  void openStreamsEndRolledBackWhenTheDatabaseIsRestoredUnderThem() {
    Path data = dir.resolve("pgdata");
    Path copy = dir.resolve("pgdata-copy");
    EmbeddedDatabase database = EmbeddedDatabase.start(data, 0);
    int port = database.port();
    try (PostgresServer server = PostgresServer.withHttp(database.url("postgres"))) {
      server.blocking().append(Wire.append(SPACE, Wire.blocks(feed, "a", 0, 3)));
      database.close();
      EmbeddedDatabase.copyData(data, copy); // a backup, taken while the database is stopped
      database = EmbeddedDatabase.start(data, port);
      appendOnceTheDatabaseIsBack(server, 3, 2);

      EventRecorder<WatchEvent> watch = new EventRecorder<>();
      server.async().watch(WatchRequest.newBuilder().setSpaceId(SPACE).build(), watch);
      assertEquals(List.of(1L, 2L, 3L, 4L, 5L), positionsUpTo(watch, 5));
      try (SseReader events = SseReader.open(server.http(), "/v1/spaces/" + SPACE + "/events")) {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), events.positions(5));

        database.close();
        EmbeddedDatabase.deleteData(data);
        EmbeddedDatabase.copyData(copy, data); // the restore: positions 4 and 5 are gone
        database = EmbeddedDatabase.start(data, port);

        Await.until("the Watch ends", Duration.ofSeconds(60), watch::ended);
        StatusRuntimeException end = watch.awaitEndWithTrailers();
        assertEquals(Status.Code.ABORTED, end.getStatus().getCode(), String.valueOf(end.getStatus()));
        ErrorInfo info = errorInfo(end);
        assertEquals(WireErrors.HISTORY_ROLLED_BACK, info.getReason());
        assertEquals("3", info.getMetadataOrThrow("max_position"));
        SseReader.Event rolledBack = events.next("rolled-back");
        assertEquals("ABORTED", rolledBack.json().get("code").getAsString());
        assertEquals(3, rolledBack.json().get("max_position").getAsLong());
        events.awaitEnd();
      }
      assertEquals(3, server.blocking().query(QueryRequest.newBuilder().setSpaceId(SPACE).setCursor(5).build())
          .getMaxPosition(), "a client connecting again from its cursor sees the highest position below it");
    } finally {
      database.close();
    }
  }

  /** Appends {@code count} blocks from sequence {@code first} once the database takes them again. */
  private void appendOnceTheDatabaseIsBack(PostgresServer server, long first, int count) {
    Await.until("appends succeed again", Duration.ofSeconds(60), () -> {
      try {
        server.blocking().append(Wire.append(SPACE, Wire.blocks(feed, "a", first, count)));
        return true;
      } catch (StatusRuntimeException e) {
        return false;
      }
    });
  }

  private static ErrorInfo errorInfo(StatusRuntimeException end) {
    try {
      return StatusProto.fromThrowable(end).getDetails(0).unpack(ErrorInfo.class);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }
}
