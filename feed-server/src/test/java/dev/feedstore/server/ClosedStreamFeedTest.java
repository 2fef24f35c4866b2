package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.StreamName;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream's close is enforced on every path that writes its feed, not only on the protocol's POST:
 * a gRPC Append (a replica's push) or an append of the HTTP API that brings new blocks to the feed of
 * a closed stream is refused, {@code FAILED_PRECONDITION} with reason {@code STREAM_CLOSED}, naming
 * the feed, and so is one to the feed of a deleted or expired stream; blocks stored there before
 * keep their positions when pushed again. Blocks a server without this check stored after a close
 * are never served by a stream read. Real server over loopback (gRPC and HTTP), real SQLite file.
 */
class ClosedStreamFeedTest {
  private static final String TEXT = "text/plain";

  @TempDir Path dir;
  final TestClock clock = new TestClock();
  TestServer t;

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private Streams start(ServerSettings settings) {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().http().clock(clock).settings(settings).start();
    return new Streams(t.http());
  }

  private Streams start() {
    return start(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build());
  }

  private List<Block> stored() {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("streams").build()).getBlocksList();
  }

  private StatusRuntimeException refusedAppend(Block... blocks) {
    return assertThrows(StatusRuntimeException.class, () -> t.blocking().append(Wire.append("streams", blocks)));
  }

  @Test
  void newBlocksForAClosedStreamsFeedAreRefusedNamingTheFeedAndStoredOnesKeepTheirPositions() {
    Streams streams = start();
    streams.create("done", TEXT, "a");
    HttpResponse<String> closed = streams.append("done", TEXT, "b", "Stream-Closed", "true");
    streams.create("open", TEXT, "");
    FeedId done = StreamName.of("done").feedId(0);
    List<Block> before = stored();

    StatusRuntimeException refused = refusedAppend(Wire.block(done, "replica", 2, "after the close"));
    assertEquals(Status.Code.FAILED_PRECONDITION, refused.getStatus().getCode());
    assertEquals("STREAM_CLOSED", WireErrors.reason(refused));
    String description = refused.getStatus().getDescription();
    assertTrue(description.contains(done.value()) && description.contains("'done'")
        && description.contains(Streams.offset(closed)), description);
    assertEquals(before, stored(), "nothing of the refused append was stored");

    AppendResponse repushed = t.blocking().append(Wire.append("streams", before.stream()
        .map(b -> b.toBuilder().clearPosition().clearReceivedAt().build()).toList()));
    assertArrayEquals(before.stream().mapToLong(Block::getPosition).toArray(),
        repushed.getPositionsList().stream().mapToLong(Long::longValue).toArray(), "a push again of blocks stored"
            + " before the close is answered with their positions");
    FeedId open = StreamName.of("open").feedId(0);
    t.blocking().append(Wire.append("streams", Wire.block(open, "replica", 0, "to a live stream")));
    assertEquals("to a live stream", streams.read("open", "offset=-1").body());
    assertEquals("ab", streams.read("done", "offset=-1").body());
  }

  @Test
  void theHttpApisAppendToAClosedStreamsFeedIsRefusedWithTheSameReason() {
    Streams streams = start();
    streams.create("done", TEXT, "a", "Stream-Closed", "true");
    FeedId done = StreamName.of("done").feedId(0);

    HttpResponse<String> refused = t.http().append("streams", done.value(), "replica", 1, 1);
    assertEquals(409, refused.statusCode(), refused.body());
    JsonObject body = Http.json(refused);
    assertEquals("FAILED_PRECONDITION", body.get("code").getAsString());
    assertEquals("STREAM_CLOSED", body.get("reason").getAsString());
    assertEquals(done.value(), body.getAsJsonArray("feeds").get(0).getAsString());
    assertEquals(1, stored().size());
  }

  @Test
  void theFeedsOfDeletedAndExpiredStreamsTakeNoNewBlocks() {
    Streams streams = start();
    streams.create("deleted", TEXT, "d");
    assertEquals(204, streams.http().send(streams.request("deleted", "").DELETE().build()).statusCode());
    streams.create("brief", TEXT, "e", "Stream-TTL", "60");
    clock.advance(Duration.ofSeconds(61));
    streams.create("recreated", TEXT, "r");
    streams.http().send(streams.request("recreated", "").DELETE().build());
    assertEquals(201, streams.create("recreated", TEXT, "").statusCode(), "the name's next generation");
    int before = stored().size();

    StatusRuntimeException deleted = refusedAppend(Wire.block(StreamName.of("deleted").feedId(0), "replica", 1));
    assertEquals("STREAM_CLOSED", WireErrors.reason(deleted));
    assertTrue(deleted.getStatus().getDescription().contains("deleted"), deleted.getStatus().getDescription());
    StatusRuntimeException expired = refusedAppend(Wire.block(StreamName.of("brief").feedId(0), "replica", 1));
    assertEquals("STREAM_CLOSED", WireErrors.reason(expired));
    assertTrue(expired.getStatus().getDescription().contains("expired"), expired.getStatus().getDescription());
    refusedAppend(Wire.block(StreamName.of("recreated").feedId(0), "replica", 1));
    assertEquals(before, stored().size());

    t.blocking().append(Wire.append("streams", Wire.block(StreamName.of("recreated").feedId(1), "replica", 0, "x")));
    assertEquals("x", streams.read("recreated", "offset=-1").body(), "the live generation takes blocks");
  }

  @Test
  void blocksStoredAfterACloseAreServedByNoStreamRead() {
    Streams streams = start();
    streams.create("old", TEXT, "a");
    String end = Streams.offset(streams.append("old", TEXT, "b", "Stream-Closed", "true"));
    t.close();
    // A server of another streams space does not guard this one: it stores what an older server did.
    start(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(STREAMS_SPACE, "elsewhere").build());
    t.blocking().append(Wire.append("streams", Wire.block(StreamName.of("old").feedId(0), "replica", 5, "hidden")));
    t.close();
    streams = start();

    assertEquals("ab", streams.read("old", "offset=-1").body());
    HttpResponse<String> head = streams.http().send(streams.request("old", "").method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build());
    assertEquals(end, Streams.offset(head), "the tail stays at the close");
    HttpResponse<String> atEnd = streams.read("old", "offset=" + end);
    assertEquals(200, atEnd.statusCode());
    assertEquals("", atEnd.body());
    assertEquals("true", atEnd.headers().firstValue("Stream-Closed").orElse(""));
    HttpResponse<String> poll = streams.read("old", "offset=" + end + "&live=long-poll");
    assertEquals(204, poll.statusCode(), "closed at once, not a wait: " + poll.body());
    assertEquals("true", poll.headers().firstValue("Stream-Closed").orElse(""));
    assertEquals(end, Streams.offset(poll));
    try (SseReader events = SseReader.open(t.http(), "/v1/stream/old?offset=-1&live=sse")) {
      assertEquals("ab", events.next("data").data());
      SseReader.Event control = events.next("control");
      while (!control.json().has("streamClosed")) {
        control = events.next("control"); // the block's own control may come before the close's
      }
      assertEquals(end, control.json().get("streamNextOffset").getAsString());
      assertTrue(control.json().get("streamClosed").getAsBoolean());
      events.awaitEnd();
    }
    assertFalse(streams.read("old", "offset=" + end).body().contains("hidden"));
  }
}
