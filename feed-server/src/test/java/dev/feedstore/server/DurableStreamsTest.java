package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.FEEDS_PER_SPACE;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_LONG_POLL_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable Streams over a real HTTP socket, and what they are in the store: each append one block
 * of the stream's feed in the streams' space, at the position its offset names; producers' and
 * streams' records survive a restart; live reads wake on appends and end with a close. (The
 * protocol itself is checked whole by its conformance suite, {@code feed-server/conformance}.)
 */
class DurableStreamsTest {
  @TempDir Path dir;
  TestServer t;

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private Streams start() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    return new Streams(t.http());
  }

  private QueryResponse space() {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("streams").setCursor(0).build());
  }

  @Test
  void anAppendIsOneBlockOfTheStreamsFeedAtThePositionOfItsOffset() {
    Streams streams = start();
    HttpResponse<String> created = streams.create("chat/room-1", "text/plain", "hello ");
    assertEquals(201, created.statusCode());
    HttpResponse<String> appended = streams.append("chat/room-1", "text/plain", "world");
    assertEquals(204, appended.statusCode());

    List<Block> blocks = space().getBlocksList();
    FeedId feed = StreamName.of("chat/room-1").feedId(0);
    assertEquals(2, blocks.size());
    for (Block block : blocks) {
      assertEquals(feed.value(), block.getFeedId());
      assertEquals("http", block.getActorId());
    }
    assertEquals(List.of(0L, 1L), blocks.stream().map(Block::getSequence).toList(), "the feed's Lamport sequence");
    assertEquals("hello ", blocks.get(0).getData().toStringUtf8());
    assertEquals(String.format("%016d_%016d", blocks.get(0).getPosition(), 0), Streams.offset(created));
    assertEquals(String.format("%016d_%016d", blocks.get(1).getPosition(), 0), Streams.offset(appended));
    assertEquals("world", streams.read("chat/room-1", "offset=" + Streams.offset(created)).body());
  }

  @Test
  void aJsonAppendIsOneBlockHoldingItsMessagesAsAnArray() {
    Streams streams = start();
    streams.create("events", "application/json", "");
    assertEquals(204, streams.append("events", "application/json", "[{\"a\": 1}, 2.50]").statusCode());
    assertEquals(204, streams.append("events", "application/json", "\"three\"").statusCode());

    assertEquals(List.of("[{\"a\": 1},2.50]", "[\"three\"]"),
        space().getBlocksList().stream().map(b -> b.getData().toStringUtf8()).toList(), "messages kept as sent");
    assertEquals("[{\"a\": 1},2.50,\"three\"]", streams.read("events", "offset=-1").body());
    HttpResponse<String> invalid = streams.append("events", "application/json", "{\"a\": }");
    assertEquals(400, invalid.statusCode());
    assertTrue(invalid.body().contains("one JSON value"), invalid.body());
    assertEquals(2, space().getBlocksCount(), "a refused append writes nothing");
  }

  @Test
  void aProducersRetryAfterARestartIsAnsweredAsADuplicateAndWrittenOnce() {
    Streams streams = start();
    streams.create("orders", "text/plain", "");
    String[] producer = {"Producer-Id", "checkout-1", "Producer-Epoch", "3", "Producer-Seq", "0"};
    HttpResponse<String> first = streams.append("orders", "text/plain", "order-1", producer);
    assertEquals(200, first.statusCode());
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    streams = new Streams(t.http());

    HttpResponse<String> retry = streams.append("orders", "text/plain", "order-1", producer);
    assertEquals(204, retry.statusCode(), "a duplicate");
    assertEquals("3", retry.headers().firstValue("Producer-Epoch").orElse(""));
    assertEquals("0", retry.headers().firstValue("Producer-Seq").orElse(""));
    assertEquals("order-1", streams.read("orders", "offset=-1").body());
    Block block = space().getBlocks(0);
    assertEquals("checkout-1", block.getActorId(), "the producer is the block's actor");
    assertEquals(200, streams.append("orders", "text/plain", "order-2", "Producer-Id", "checkout service #2",
        "Producer-Epoch", "0", "Producer-Seq", "0").statusCode());
    assertTrue(space().getBlocks(1).getActorId().matches("producer-[0-9a-f]{32}"),
        "an id that is no actor id is digested: " + space().getBlocks(1).getActorId());
    HttpResponse<String> stale = streams.append("orders", "text/plain", "zombie",
        "Producer-Id", "checkout-1", "Producer-Epoch", "2", "Producer-Seq", "1");
    assertEquals(403, stale.statusCode());
    assertEquals("3", stale.headers().firstValue("Producer-Epoch").orElse(""));
  }

  @Test
  void aLongPollAtTheTailAnswersWithTheNextAppend() throws Exception {
    Streams streams = start();
    String tail = Streams.offset(streams.create("poll", "text/plain", "old"));
    CompletableFuture<HttpResponse<String>> poll = streams.http().client().sendAsync(
        streams.request("poll", "offset=" + tail + "&live=long-poll").GET().build(),
        HttpResponse.BodyHandlers.ofString());
    dev.feedstore.testing.Await.until("the long-poll waits at the tail", Duration.ofSeconds(10),
        () -> t.server.openWatches() == 1);
    streams.append("poll", "text/plain", "new");

    HttpResponse<String> answer = poll.get(30, TimeUnit.SECONDS);
    assertEquals(200, answer.statusCode());
    assertEquals("new", answer.body());
    assertEquals("true", answer.headers().firstValue("Stream-Up-To-Date").orElse(""));
    assertTrue(answer.headers().firstValue("Stream-Cursor").orElse("").matches("[0-9]+"));
    dev.feedstore.testing.Await.until("the follower is released", Duration.ofSeconds(10),
        () -> t.server.openWatches() == 0);
  }

  @Test
  void longPollsWhoseWaitEndsAsTheyOpenAreAnsweredAndLeaveNoStreamOpen() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).http()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(STREAMS_LONG_POLL_MS, 1).build())
        .start();
    Streams streams = new Streams(t.http());
    String tail = Streams.offset(streams.create("quiet", "text/plain", "only"));
    // Waits of 1 ms often end while their followers are being opened, in either order.
    for (int wave = 0; wave < 30; wave++) {
      List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        polls.add(streams.http().client().sendAsync(
            streams.request("quiet", "offset=" + tail + "&live=long-poll").GET().build(),
            HttpResponse.BodyHandlers.ofString()));
      }
      for (CompletableFuture<HttpResponse<String>> poll : polls) {
        HttpResponse<String> answer = poll.get(30, TimeUnit.SECONDS);
        assertEquals(204, answer.statusCode(), answer.body());
      }
    }
    dev.feedstore.testing.Await.until("every follower is released", Duration.ofSeconds(10),
        () -> t.server.openWatches() == 0);
  }

  @Test
  void anEventStreamFollowsAppendsAndEndsWithTheClose() {
    Streams streams = start();
    streams.create("live", "text/plain", "");
    SseReader events = SseReader.open(streams.http(), "/v1/stream/live?offset=now&live=sse");
    SseReader.Event caughtUp = events.next();
    assertEquals("control", caughtUp.name());
    assertTrue(caughtUp.json().get("upToDate").getAsBoolean());

    streams.append("live", "text/plain", "line 1\nline 2");
    SseReader.Event data = events.next();
    assertEquals("data", data.name());
    assertEquals("line 1\nline 2", data.data());
    assertEquals("control", events.next().name());

    HttpResponse<String> closed = streams.append("live", "text/plain", "last", "Stream-Closed", "true");
    assertEquals("last", events.next("data").data());
    SseReader.Event end = events.next("control");
    while (!end.json().has("streamClosed")) {
      end = events.next("control"); // the block's own control may come before the close's
    }
    assertTrue(end.json().get("streamClosed").getAsBoolean());
    assertFalse(end.json().has("streamCursor"));
    assertEquals(Streams.offset(closed), end.json().get("streamNextOffset").getAsString());
    events.awaitEnd();
  }

  @Test
  void aForkReadsItsSourceUpToTheForkThenItsOwnBlocks() {
    Streams streams = start();
    String forkAt = Streams.offset(streams.create("source", "text/plain", "shared "));
    streams.append("source", "text/plain", "source only");
    assertEquals(201, streams.create("fork", "text/plain", "", "Stream-Forked-From", "/v1/stream/source",
        "Stream-Fork-Offset", forkAt).statusCode());
    streams.append("fork", "text/plain", "fork only");

    assertEquals("shared fork only", streams.read("fork", "offset=-1").body());
    assertEquals("shared source only", streams.read("source", "offset=-1").body());
    assertEquals(204, streams.http().send(streams.request("source", "").DELETE().build()).statusCode());
    assertEquals(410, streams.read("source", "offset=-1").statusCode(), "kept for its fork");
    assertEquals("shared fork only", streams.read("fork", "offset=-1").body());
  }

  @Test
  void streamsCountUnderFeedsPerSpaceAndTheirSpacesAccessRules() throws Exception {
    Path tokens = dir.resolve("tokens");
    java.nio.file.Files.writeString(tokens, AccessTokens.sha256("writer") + " write streams\n"
        + AccessTokens.sha256("reader") + " read streams\n");
    t = TestServer.on(dir.resolve("feeds.db")).http().accessTokens(AccessTokens.read(tokens))
        .settings(ServerSettings.newBuilder().set(FEEDS_PER_SPACE, 2).build()).start();
    Streams writer = new Streams(t.http().withToken("writer"));
    Streams reader = new Streams(t.http().withToken("reader"));
    assertEquals(201, writer.create("one", "text/plain", "1").statusCode());
    HttpResponse<String> refused = reader.create("two", "text/plain", "2");
    assertEquals(403, refused.statusCode());
    assertTrue(refused.body().contains("may read space 'streams' but not"), refused.body());
    assertEquals("1", reader.read("one", "offset=-1").body());
    HttpResponse<String> anonymous = new Streams(t.http()).read("one", "offset=-1");
    assertEquals(401, anonymous.statusCode());
    assertEquals("nosniff", anonymous.headers().firstValue("X-Content-Type-Options").orElse(""), "on refusals too");
    assertEquals(201, writer.create("two", "text/plain", "").statusCode());
    HttpResponse<String> third = writer.create("three", "text/plain", "");
    assertEquals(429, third.statusCode());
    assertTrue(third.body().contains("feeds-per-space limit is 2"), third.body());
    assertEquals(404, writer.read("three", "offset=-1").statusCode());
  }

  @Test
  void refusalsNameTheValueAndTheRuleAndChangeNothing() {
    Streams streams = start();
    streams.create("s", "text/plain", "x");
    HttpResponse<String> offset = streams.read("s", "offset=12");
    assertEquals(400, offset.statusCode());
    assertTrue(offset.body().contains("offset 12 must be -1"), offset.body());
    assertEquals("nosniff", offset.headers().firstValue("X-Content-Type-Options").orElse(""));
    HttpResponse<String> ttl = streams.create("t", "text/plain", "", "Stream-TTL", "01");
    assertEquals(400, ttl.statusCode());
    assertTrue(ttl.body().contains("Stream-TTL 01 must be a whole number"), ttl.body());
    assertEquals(404, streams.read("t", "offset=-1").statusCode());
    HttpResponse<String> type = streams.append("s", "application/json", "{}");
    assertEquals(409, type.statusCode());
    assertTrue(type.body().contains("holds text/plain, not application/json"), type.body());
    assertEquals(1, space().getBlocksCount());
  }
}
