package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /v1/spaces/{space}/events}: Server-Sent Events with Watch's guarantees, over a real
 * socket: gapless and exactly once across catch-up and live, resumable by {@code Last-Event-ID}
 * (after a disconnect and after a restart), an explicit reset for a cursor of another store.
 */
class SseTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
    if (t != null) {
      t.close();
    }
  }

  @Test
  void historyThenLiveIsGaplessAndExactlyOnceWhileAppendsRun() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    append(0, 500);
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread appender = new Thread(() -> {
      try {
        for (int i = 0; i < 50; i++) {
          append(500 + i * 20, 20);
        }
      } catch (Throwable e) {
        failed.set(e);
      }
    });

    SseReader events = open("/v1/spaces/s/events?after=0");
    appender.start();
    SseReader.Event first = events.next();
    assertEquals("server-token", first.name());
    assertEquals(token(), first.json().get("server_token").getAsString());
    List<Long> positions = events.positions(1500);
    appender.join();

    assertEquals(null, failed.get());
    assertEquals(WatchTest.range(1, 1500), positions, "every block once, in order");
    assertEquals("text/event-stream; charset=utf-8", events.response().headers().firstValue("Content-Type").orElse(""));
  }

  @Test
  void aCaughtUpEventFollowsHistoryAndHeartbeatsAreComments() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    append(0, 3);
    SseReader events = open("/v1/spaces/s/events?after=1");

    assertEquals("server-token", events.next().name());
    assertEquals(List.of(2L, 3L), events.positions(2));
    SseReader.Event caughtUp = events.next();
    assertEquals("caught-up", caughtUp.name());
    assertEquals(3, caughtUp.json().get("max_position").getAsLong());

    t.server.tick(); // the interval in which caught-up was sent
    t.server.tick(); // a whole interval with nothing sent
    assertEquals("heartbeat max_position=3", events.nextComment());
    append(3, 1);
    SseReader.Event live = events.next();
    assertEquals("4", live.id());
    assertEquals(feed.value(), live.json().get("feed_id").getAsString());
  }

  @Test
  void lastEventIdResumesExactlyAfterIt() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    append(0, 10);
    SseReader first = open("/v1/spaces/s/events");
    assertEquals(WatchTest.range(1, 7), first.positions(7));
    first.close();

    SseReader resumed = open("/v1/spaces/s/events?after=0", "Last-Event-ID", "7", "Feed-Server-Token", token());

    assertEquals("server-token", resumed.next().name(), "the same store: no reset");
    assertEquals(WatchTest.range(8, 10), resumed.positions(3));
  }

  @Test
  void aStreamResumesAfterTheServerRestartsOnTheSameFile() throws Exception {
    Path file = dir.resolve("feeds.db");
    SqliteFeedStore store = SqliteFeedStore.open(file);
    FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0).build().start();
    int grpcPort = server.port();
    int httpPort = server.httpPort();
    Http http = Http.on(httpPort);
    http.append("s", feed.value(), "a", 0, 5);
    String token = Http.json(http.get("/v1/spaces/s/blocks")).get("server_token").getAsString();
    SseReader before = SseReader.open(http, "/v1/spaces/s/events");
    closing.add(before);
    assertEquals(WatchTest.range(1, 5), before.positions(5));

    server.close();
    store.close();
    SseReader.Event end = before.next("error");
    assertEquals("UNAVAILABLE", end.json().get("code").getAsString());
    before.awaitEnd();
    store = SqliteFeedStore.open(file);
    server = FeedServer.newBuilder(store).address("127.0.0.1", grpcPort).http("127.0.0.1", httpPort).build().start();
    try {
      http.append("s", feed.value(), "a", 5, 2);
      SseReader after = SseReader.open(http, "/v1/spaces/s/events", "Last-Event-ID", "5", "Feed-Server-Token", token);
      closing.add(after);
      assertEquals("server-token", after.next().name());
      assertEquals(List.of(6L, 7L), after.positions(2), "the next two, exactly once");
    } finally {
      server.close();
      store.close();
    }
  }

  @Test
  void aCursorOfAReplacedStoreGetsAResetEventAndEverythingFromTheStart() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    append(0, 3);

    SseReader events = open("/v1/spaces/s/events", "Last-Event-ID", "40", "Feed-Server-Token", "a-wiped-store");

    SseReader.Event reset = events.next();
    assertEquals("reset", reset.name());
    assertEquals(token(), reset.json().get("server_token").getAsString());
    assertTrue(reset.json().get("message").getAsString().contains("starts over from position 0"), reset.data());
    assertEquals("server-token", events.next().name());
    assertEquals(List.of(1L, 2L, 3L), events.positions(3));
  }

  @Test
  void aClientOfAStoreThatWasReplacedGetsAResetAndTheNewStoresBlocksFromTheStart() throws Exception {
    String oldToken;
    int httpPort;
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("old.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", 0).build().start()) {
      httpPort = server.httpPort();
      Http http = Http.on(httpPort);
      http.append("s", feed.value(), "a", 0, 3);
      oldToken = Http.json(http.get("/v1/spaces/s/blocks")).get("server_token").getAsString();
    }
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("new.db"));
        FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).http("127.0.0.1", httpPort).build()
            .start()) {
      Http http = Http.on(httpPort);
      http.append("s", feed.value(), "b", 0, 2);
      SseReader events = SseReader.open(http, "/v1/spaces/s/events", "Last-Event-ID", "3", "Feed-Server-Token",
          oldToken);
      closing.add(events);

      SseReader.Event reset = events.next();
      assertEquals("reset", reset.name(), "never a silent restart from 0");
      assertTrue(!reset.json().get("server_token").getAsString().equals(oldToken));
      assertEquals(List.of(1L, 2L), events.positions(2));
      assertEquals("caught-up", events.next().name());
    }
  }

  @Test
  void aStreamOfAFeedOrNamespaceCarriesOnlyItsBlocks() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    FeedId other = TestBlocks.feedId();
    SseReader events = open("/v1/spaces/s/events?feed=" + other.value());
    events.next("caught-up");

    append(0, 2);
    t.blocking().append(Wire.append("s", Wire.blocks(other, "b", 0, 1)));

    assertEquals(List.of(3L), events.positions(1));
  }

  @Test
  void aStreamThatCannotOpenIsAJsonError() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();

    var response = t.http().get("/v1/spaces/s/events?subscription=nope");

    assertEquals(404, response.statusCode(), response.body());
    assertEquals("NOT_FOUND", Http.json(response).get("code").getAsString());
  }

  private SseReader open(String path, String... headers) {
    SseReader reader = SseReader.open(t.http(), path, headers);
    closing.add(reader);
    assertEquals(200, reader.response().statusCode());
    return reader;
  }

  private void append(long first, int count) {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", first, count)));
  }

  private String token() {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken();
  }
}
