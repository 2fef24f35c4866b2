package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.RETAIN_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable Streams under retention ({@code retain-blocks 50}), over a real HTTP socket and a real
 * SQLite file: an offset after which retention removed some of the stream's content is {@code 410
 * Gone} for a plain read, a long-poll and an event stream alike, never a read that silently starts
 * later; a reader that missed nothing of its stream is served as before, however far the space's
 * floor moved; an offset past the stream's tail, which this server never gave, is {@code 400}
 * naming the tail; a stream's next block never takes the key of one retention removed.
 */
class StreamRetentionTest {
  private static final String TEXT = "text/plain";

  @TempDir Path dir;
  TestServer t;
  Streams streams;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).http()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(RETAIN_BLOCKS, 50).build()).start();
    streams = new Streams(t.http());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private static String offset(long position) {
    return String.format("%016d_%016d", position, 0);
  }

  /** Appends {@code count} messages {@code prefix0, prefix1, ...} to {@code name}, one request each. */
  private void appendMessages(String name, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      assertEquals(204, streams.append(name, TEXT, prefix + i + ";").statusCode());
    }
  }

  private long floor() {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("streams").build()).getFloor();
  }

  private static String messages(String prefix, int from, int to) {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      text.append(prefix).append(i).append(';');
    }
    return text.toString();
  }

  @Test
  void anOffsetWhoseDataRetentionRemovedIsGoneForReadsLongPollsAndEventStreams() {
    assertEquals(201, streams.create("cs", TEXT, "").statusCode());
    appendMessages("cs", "m", 100);
    t.server.applyRetention();
    assertEquals(50, floor());

    HttpResponse<String> below = streams.read("cs", "offset=" + offset(5));
    assertEquals(410, below.statusCode(), below.body());
    assertTrue(below.body().contains(offset(50)), "names where the stream's data begins now: " + below.body());
    assertEquals(410, streams.read("cs", "offset=" + offset(5) + "&live=long-poll").statusCode());
    try (SseReader events = SseReader.open(t.http(), "/v1/stream/cs?offset=" + offset(5) + "&live=sse")) {
      assertEquals(410, events.response().statusCode(), "refused before the event stream begins");
    }

    HttpResponse<String> fromStart = streams.read("cs", "offset=-1");
    assertEquals(200, fromStart.statusCode());
    assertEquals(messages("m", 50, 100), fromStart.body(), "-1 reads what the stream still holds");
    assertEquals(offset(100), Streams.offset(fromStart));
    assertEquals(messages("m", 50, 100), streams.read("cs", "offset=" + offset(50)).body());
    assertEquals(messages("m", 90, 100), streams.read("cs", "offset=" + offset(90)).body());
  }

  @Test
  void aReaderThatMissedNothingOfItsStreamIsServedHoweverFarTheFloorMoved() throws Exception {
    streams.create("quiet", TEXT, "q0;");
    String caughtUp = Streams.offset(streams.read("quiet", "offset=-1"));
    assertEquals(offset(1), caughtUp);
    streams.create("busy", TEXT, "");
    appendMessages("busy", "b", 100);
    t.server.applyRetention();
    assertEquals(51, floor(), "the quiet stream's only block is gone, and nothing after the reader's offset");

    HttpResponse<String> read = streams.read("quiet", "offset=" + caughtUp);
    assertEquals(200, read.statusCode(), read.body());
    assertEquals("", read.body());
    assertEquals("true", read.headers().firstValue("Stream-Up-To-Date").orElse(""));
    CompletableFuture<HttpResponse<String>> poll = streams.http().client().sendAsync(
        streams.request("quiet", "offset=" + caughtUp + "&live=long-poll").GET().build(),
        HttpResponse.BodyHandlers.ofString());
    dev.feedstore.testing.Await.until("the long-poll waits or answers",
        () -> t.server.openWatches() == 1 || poll.isDone());
    assertTrue(!poll.isDone(), () -> "the long-poll waits for the next append, but answered " + poll.join().statusCode()
        + " " + poll.join().body());
    streams.append("quiet", TEXT, "q1;");
    HttpResponse<String> woken = poll.get(30, TimeUnit.SECONDS);
    assertEquals(200, woken.statusCode(), woken.body());
    assertEquals("q1;", woken.body());

    assertEquals(201, streams.create("late", TEXT, "").statusCode(), "created above the floor");
    String empty = Streams.offset(streams.read("late", "offset=-1"));
    streams.append("late", TEXT, "l0;");
    HttpResponse<String> late = streams.read("late", "offset=" + empty);
    assertEquals(200, late.statusCode(), "a stream created above the floor never answers 410: " + late.body());
    assertEquals("l0;", late.body());
  }

  @Test
  void anAppendAfterRetentionRemovedEveryBlockOfItsStreamTakesASequenceAboveTheRemovedOnes() {
    assertEquals(201, streams.create("cs", TEXT, "").statusCode());
    appendMessages("cs", "m", 3);
    FeedId feed = StreamName.of("cs").feedId(0);
    assertEquals(List.of(0L, 1L, 2L), sequences(feed));
    streams.create("busy", TEXT, "");
    appendMessages("busy", "b", 60);
    t.server.applyRetention();
    assertEquals(13, floor());
    assertEquals(List.of(), sequences(feed), "retention removed every block of the stream");

    appendMessages("cs", "n", 2);
    assertEquals(List.of(3L, 4L), sequences(feed),
        "keys (feed, http, 0) and (feed, http, 1) name removed blocks that replicas may hold");
    assertEquals(messages("n", 0, 2), streams.read("cs", "offset=-1").body());
  }

  /** The sequences of the blocks the feed holds, in position order. */
  private List<Long> sequences(FeedId feed) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("streams").addFeedIds(feed.value()).build())
        .getBlocksList().stream().map(dev.feedstore.proto.v1.Block::getSequence).toList();
  }

  @Test
  void anOffsetPastTheTailIsRefusedNamingTheTail() {
    streams.create("cs", TEXT, "");
    appendMessages("cs", "m", 3);

    HttpResponse<String> past = streams.read("cs", "offset=" + offset(9999));
    assertEquals(400, past.statusCode(), past.body());
    assertTrue(past.body().contains(offset(9999)) && past.body().contains("tail " + offset(3)), past.body());
    HttpResponse<String> poll = streams.read("cs", "offset=" + offset(9999) + "&live=long-poll");
    assertEquals(400, poll.statusCode(), "refused at once, not after a wait: " + poll.body());
    try (SseReader events = SseReader.open(t.http(), "/v1/stream/cs?offset=" + offset(9999) + "&live=sse")) {
      assertEquals(400, events.response().statusCode());
    }
    assertEquals(messages("m", 0, 3), streams.read("cs", "offset=-1").body(), "nothing changed");
  }
}
