package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The floor over HTTP: in the JSON page, 410 with the reason below it, and SSE's {@code event: compacted}. */
class HttpCompactionTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 10)));
    t.blocking().compact(CompactRequest.newBuilder().setSpaceId("s").setUpTo(6).build());
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void thePageCarriesTheFloorAndACursorBelowItIsGoneWithTheReason() {
    HttpResponse<String> page = t.http().get("/v1/spaces/s/blocks");
    assertEquals(200, page.statusCode(), page.body());
    JsonObject json = Http.json(page);
    assertEquals(6, json.get("floor").getAsLong());
    assertEquals(4, json.getAsJsonArray("blocks").size());

    HttpResponse<String> below = t.http().get("/v1/spaces/s/blocks?after=3");
    assertEquals(410, below.statusCode(), below.body());
    JsonObject refusal = Http.json(below);
    assertEquals("FAILED_PRECONDITION", refusal.get("code").getAsString());
    assertEquals("CURSOR_COMPACTED", refusal.get("reason").getAsString());
    assertEquals(6, refusal.get("floor").getAsLong());
  }

  @Test
  void anEventStreamBelowTheFloorEndsWithACompactedEventNamingIt() {
    try (SseReader events = SseReader.open(t.http(), "/v1/spaces/s/events?after=2")) {
      SseReader.Event compacted = events.next("compacted");
      assertEquals(6, compacted.json().get("floor").getAsLong());
      assertEquals("FAILED_PRECONDITION", compacted.json().get("code").getAsString());
      events.awaitEnd();
    }
  }
}
