package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /v1/spaces/{space}/blocks} and {@code POST .../feeds/{feed}/blocks} over a real socket. */
class HttpBlocksTest {
  @TempDir Path dir;
  TestServer t;
  Http http;
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).http().start();
    http = t.http();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aPageHasQuerysFieldsWithDataInBase64AndTheNextCursor() {
    t.blocking().append(AppendRequest.newBuilder(Wire.append("s", Wire.blocks(feed, "a", 0, 3))).setNamespace("chat")
        .build());
    t.blocking().append(Wire.append("s", Wire.blocks(other, "b", 0, 2)));

    HttpResponse<String> response = http.get("/v1/spaces/s/blocks?after=1&limit=2");

    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    JsonObject page = Http.json(response);
    JsonArray blocks = page.getAsJsonArray("blocks");
    assertEquals(2, blocks.size());
    JsonObject first = blocks.get(0).getAsJsonObject();
    assertEquals(2, first.get("position").getAsLong());
    assertEquals(feed.value(), first.get("feed_id").getAsString());
    assertEquals("chat", first.get("namespace").getAsString());
    assertEquals("a", first.get("actor_id").getAsString());
    assertEquals(1, first.get("sequence").getAsLong());
    assertEquals(TestBlocks.block(feed, "a", 1).predecessor().isPresent(), first.has("prev_actor_id"),
        "optional fields are left out when absent");
    assertEquals(Base64.getEncoder().encodeToString(TestBlocks.block(feed, "a", 1).data().toByteArray()),
        first.get("data").getAsString());
    assertTrue(page.get("has_more").getAsBoolean());
    assertEquals(3, page.get("next").getAsLong());
    assertEquals(5, page.get("max_position").getAsLong());
    assertEquals(feed.value(), page.getAsJsonObject("cursor_block").get("feed_id").getAsString());
    assertEquals(0, page.getAsJsonObject("cursor_block").get("sequence").getAsLong());
    assertEquals(t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken(),
        page.get("server_token").getAsString());

    JsonObject rest = Http.json(http.get("/v1/spaces/s/blocks?after=" + page.get("next").getAsLong()));
    assertEquals(List.of(4L, 5L), positions(rest));
    assertFalse(rest.get("has_more").getAsBoolean());
    assertEquals(5, rest.get("next").getAsLong());
  }

  @Test
  void aPageFollowsItsScope() {
    t.blocking().append(AppendRequest.newBuilder(Wire.append("s", Wire.blocks(feed, "a", 0, 2))).setNamespace("chat")
        .build());
    t.blocking().append(Wire.append("s", Wire.blocks(other, "b", 0, 2)));

    assertEquals(List.of(3L, 4L), positions(Http.json(http.get("/v1/spaces/s/blocks?feed=" + other.value()))));
    assertEquals(List.of(1L, 2L), positions(Http.json(http.get("/v1/spaces/s/blocks?namespace=chat"))));
    assertEquals(List.of(1L, 2L, 3L, 4L),
        positions(Http.json(http.get("/v1/spaces/s/blocks?feed=" + feed.value() + "&feed=" + other.value()))));
    JsonObject none = Http.json(http.get("/v1/spaces/s/blocks?namespace=none"));
    assertEquals(List.of(), positions(none));
    assertEquals(4, none.get("next").getAsLong(), "the whole space up to its end was read");
  }

  @Test
  void aPageForAnotherStoresTokenStartsAtTheBeginning() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));

    JsonObject page = Http.json(http.get("/v1/spaces/s/blocks?after=2&server_token=someone-else"));

    assertEquals(List.of(1L, 2L, 3L), positions(page));
  }

  @Test
  void anAppendStoresTheBlocksOnceAndAnswersTheirPositions() {
    HttpResponse<String> first = http.append("s", feed.value(), "web", 0, 3);
    HttpResponse<String> again = http.append("s", feed.value(), "web", 0, 3);

    assertEquals(200, first.statusCode(), first.body());
    assertEquals("[1,2,3]", Http.json(first).get("positions").toString());
    assertEquals("[1,2,3]", Http.json(again).get("positions").toString(), "the same blocks again: the same positions");
    var stamped = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocks(0).getReceivedAt();
    assertEquals("[" + stamped + "," + stamped + "," + stamped + "]", Http.json(first).get("received_at").toString(),
        "each block's receive time, as the blocks served say it");
    assertEquals(Http.json(first).get("received_at"), Http.json(again).get("received_at"));
    assertEquals(Http.json(first).get("server_token").getAsString(),
        t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken());
    var stored = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocksList();
    assertEquals(3, stored.size());
    assertEquals("web/2", stored.get(2).getData().toString(StandardCharsets.UTF_8));
    assertEquals(feed.value(), stored.get(2).getFeedId());
  }

  @Test
  void anAppendWithANamespaceCreatesTheFeedInIt() {
    HttpResponse<String> response = http.post("/v1/spaces/s/feeds/" + feed.value() + "/blocks",
        "{\"namespace\":\"chat\",\"blocks\":[{\"actor_id\":\"w\",\"sequence\":0,\"data\":\"aGk=\"}]}");

    assertEquals(200, response.statusCode(), response.body());
    assertEquals(List.of(1L), positions(Http.json(http.get("/v1/spaces/s/blocks?namespace=chat"))));
  }

  @Test
  void aSequenceConflictIs409NamingTheKeysAndWritesNothing() {
    http.append("s", feed.value(), "web", 0, 1);
    HttpResponse<String> conflict = http.post("/v1/spaces/s/feeds/" + feed.value() + "/blocks",
        "{\"blocks\":[{\"actor_id\":\"web\",\"sequence\":1,\"data\":\"bmV3\"},"
            + "{\"actor_id\":\"web\",\"sequence\":0,\"data\":\"b3RoZXI=\"}]}");

    assertEquals(409, conflict.statusCode(), conflict.body());
    JsonObject body = Http.json(conflict);
    assertEquals("ALREADY_EXISTS", body.get("code").getAsString());
    assertTrue(body.get("message").getAsString().contains("stored with different content"), body.toString());
    JsonObject key = body.getAsJsonArray("keys").get(0).getAsJsonObject();
    assertEquals(feed.value(), key.get("feed_id").getAsString());
    assertEquals("web", key.get("actor_id").getAsString());
    assertEquals(0, key.get("sequence").getAsLong());
    assertEquals(List.of(1L), positions(Http.json(http.get("/v1/spaces/s/blocks"))), "nothing of it was written");
  }

  static List<Long> positions(JsonObject page) {
    List<Long> positions = new ArrayList<>();
    page.getAsJsonArray("blocks").forEach(block -> positions.add(block.getAsJsonObject().get("position").getAsLong()));
    return positions;
  }
}
