package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receive time over HTTP: {@code received_at} in every block, and pages from {@code since}. */
class HttpReceiveTimeTest {
  private static final Instant FIRST = Instant.parse("2026-03-01T10:00:00Z");
  private static final Instant SECOND = Instant.parse("2026-03-01T11:00:00Z");

  @TempDir Path dir;
  final TestClock clock = new TestClock(FIRST);
  final FeedId feed = TestBlocks.feedId();
  TestServer t;
  Http http;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).clock(clock).http().start();
    http = t.http();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2)));
    clock.set(SECOND);
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 2, 2)));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  private static List<Long> longs(JsonObject page, String field) {
    return StreamSupport.stream(page.getAsJsonArray("blocks").spliterator(), false)
        .map(JsonElement::getAsJsonObject).map(b -> b.get(field).getAsLong()).toList();
  }

  @Test
  void everyBlockCarriesItsReceiveTime() {
    JsonObject page = Http.json(http.get("/v1/spaces/s/blocks"));
    assertEquals(List.of(FIRST.toEpochMilli(), FIRST.toEpochMilli(), SECOND.toEpochMilli(), SECOND.toEpochMilli()),
        longs(page, "received_at"));
    assertTrue(!page.has("start_cursor"), "only a page from a time says where it started");
  }

  @Test
  void sinceTakesAnIsoInstantOrMillisAndStartsAtTheBlocksReceivedFromThen() {
    JsonObject iso = Http.json(http.get("/v1/spaces/s/blocks?since=2026-03-01T10:30:00Z"));
    assertEquals(List.of(3L, 4L), longs(iso, "position"));
    assertEquals(2, iso.get("start_cursor").getAsLong());
    assertEquals(4, iso.get("next").getAsLong(), "the next page goes on from where this one read to");

    JsonObject offset = Http.json(http.get("/v1/spaces/s/blocks?since=2026-03-01T12:00:00%2B01:00"));
    assertEquals(List.of(3L, 4L), longs(offset, "position"), "12:00 at +01:00 is 11:00 UTC, the second append");

    JsonObject millis = Http.json(http.get("/v1/spaces/s/blocks?since=" + FIRST.toEpochMilli() + "&limit=1"));
    assertEquals(List.of(1L), longs(millis, "position"));
    assertEquals(0, millis.get("start_cursor").getAsLong());
    assertEquals(1, millis.get("next").getAsLong());
  }

  @Test
  void anEventStreamSinceATimeSendsTheBlocksReceivedFromThenAndWhatFollows() {
    try (SseReader events = SseReader.open(http, "/v1/spaces/s/events?since=2026-03-01T10:30:00Z")) {
      assertEquals("server-token", events.next().name());
      List<Long> positions = events.positions(2);
      assertEquals(List.of(3L, 4L), positions, "the blocks received at or after the time");
      assertEquals("caught-up", events.next().name());
      t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 4, 1)));
      SseReader.Event live = events.next();
      assertEquals("5", live.id());
      assertEquals(SECOND.toEpochMilli(), live.json().get("received_at").getAsLong());
    }
    try (SseReader resumed = SseReader.open(http, "/v1/spaces/s/events?since=2026-03-01T10:30:00Z",
        "Last-Event-ID", "4")) {
      assertEquals("server-token", resumed.next().name());
      assertEquals(List.of(5L), resumed.positions(1), "Last-Event-ID wins over since, as a reconnect sends it");
    }
  }

  @Test
  void aBadSinceIsRefusedNamingIt() {
    HttpResponse<String> text = http.get("/v1/spaces/s/blocks?since=yesterday");
    assertEquals(400, text.statusCode(), text.body());
    assertTrue(text.body().contains("since must be Unix milliseconds or an ISO-8601 instant"), text.body());

    HttpResponse<String> withAfter = http.get("/v1/spaces/s/blocks?since=0&after=2");
    assertEquals(400, withAfter.statusCode(), withAfter.body());
    assertTrue(withAfter.body().contains("since must not be given with after"), withAfter.body());

    HttpResponse<String> before1970 = http.get("/v1/spaces/s/blocks?since=1969-12-31T23:59:59Z");
    assertEquals(400, before1970.statusCode(), before1970.body());
    assertTrue(before1970.body().contains("since must be >= 0"), before1970.body());

    HttpResponse<String> events = http.get("/v1/spaces/s/events?since=soon");
    assertEquals(400, events.statusCode(), events.body());
    assertTrue(events.body().contains("since must be"), events.body());
  }
}
