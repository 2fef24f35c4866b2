package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.GetServerInfoRequest;
import dev.feedstore.proto.v1.GetServerInfoResponse;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP forms of Subscribe, Ack, ListSubscriptions, ListFeeds, GetServerInfo, Compact and
 * SetRetention, over a real socket on a real SQLite file: the wire's fields as JSON, the wire's
 * rules with the API's error bodies and statuses, and the same store as gRPC sees.
 */
class HttpCallsTest {
  @TempDir Path dir;
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();
  TestServer t;
  Http http;

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db")).clock(clock).http().start();
    http = t.http();
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aDurableSubscriptionIsMadeAcknowledgedAndListedOverHttpAsOverGrpc() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
    String body = "{\"feed_ids\":[\"" + feed.value() + "\"],\"durable\":true,\"name\":\"indexer\",\"ack_within_ms\":60000}";

    JsonObject made = ok(http.post("/v1/spaces/s/subscriptions", body));
    assertTrue(made.get("created").getAsBoolean());
    assertEquals(0, made.get("acked").getAsLong());
    assertEquals(clock.millis() + 60_000, made.get("expires_at").getAsLong());
    String id = made.get("subscription_id").getAsString();
    assertEquals(t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken(),
        made.get("server_token").getAsString());
    JsonObject again = ok(http.post("/v1/spaces/s/subscriptions", body));
    assertFalse(again.get("created").getAsBoolean(), "the same name returns the live one");
    assertEquals(id, again.get("subscription_id").getAsString());

    clock.advance(Duration.ofSeconds(10));
    JsonObject acked = ok(http.post("/v1/spaces/s/subscriptions/" + id + "/ack", "{\"up_to\":2}"));
    assertEquals(2, acked.get("acked").getAsLong());
    assertEquals(clock.millis() + 60_000, acked.get("expires_at").getAsLong(), "an ack restarts the deadline");
    assertEquals(2, t.blocking().listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("s").build())
        .getSubscriptions(0).getAcked(), "gRPC sees the acknowledgement made over HTTP");
    assertEquals(List.of(3L), HttpBlocksTest.positions(Http.json(
        http.get("/v1/spaces/s/blocks?subscription=" + id + "&after=2"))), "a page reads the subscription's scope");

    JsonObject list = ok(http.get("/v1/spaces/s/subscriptions"));
    assertEquals(3, list.get("max_position").getAsLong());
    JsonArray subscriptions = list.getAsJsonArray("subscriptions");
    assertEquals(1, subscriptions.size());
    JsonObject listed = subscriptions.get(0).getAsJsonObject();
    assertEquals(id, listed.get("subscription_id").getAsString());
    assertEquals("indexer", listed.get("name").getAsString());
    assertEquals(2, listed.get("acked").getAsLong());
    assertEquals(1, listed.get("lag").getAsLong());
    assertFalse(listed.get("expired").getAsBoolean());
  }

  @Test
  void anUnknownOrExpiredSubscriptionIs404WithItsReason() {
    String id = ok(http.post("/v1/spaces/s/subscriptions", "{\"feed_ids\":[\"" + feed.value()
        + "\"],\"durable\":true,\"ack_within_ms\":1000}")).get("subscription_id").getAsString();
    clock.advance(Duration.ofSeconds(1));

    JsonObject expired = refused(404, http.post("/v1/spaces/s/subscriptions/" + id + "/ack", "{\"up_to\":0}"));
    JsonObject unknown = refused(404, http.post("/v1/spaces/s/subscriptions/no-such-id/ack", "{\"up_to\":0}"));

    assertEquals("NOT_FOUND", expired.get("code").getAsString());
    assertEquals("SUBSCRIPTION_EXPIRED", expired.get("reason").getAsString());
    assertEquals(id, expired.get("subscription_id").getAsString());
    assertEquals("SUBSCRIPTION_UNKNOWN", unknown.get("reason").getAsString());
    assertTrue(unknown.get("message").getAsString().contains("subscribe again"), unknown.toString());
    assertTrue(ok(http.get("/v1/spaces/s/subscriptions")).getAsJsonArray("subscriptions").get(0).getAsJsonObject()
        .get("expired").getAsBoolean());
  }

  @Test
  void aSubscriptionOrAckThatBreaksTheWiresRulesIs400NamingTheFieldAndStoresNothing() {
    assertRefusal(400, "feed_ids and namespaces", "must name at least one feed or namespace",
        http.post("/v1/spaces/s/subscriptions", "{\"ttl_ms\":1000}"));
    assertRefusal(400, "ack_within_ms", "is for a durable subscription only",
        http.post("/v1/spaces/s/subscriptions", "{\"namespaces\":[\"chat\"],\"ack_within_ms\":1000}"));
    assertRefusal(400, "body", "must be the JSON of a subscription",
        http.post("/v1/spaces/s/subscriptions", "{\"feeds\":[\"x\"]}"));
    assertRefusal(400, "space_id", "must be left out or be the path's space 's'",
        http.post("/v1/spaces/s/subscriptions", "{\"space_id\":\"t\",\"namespaces\":[\"chat\"]}"));
    String id = ok(http.post("/v1/spaces/s/subscriptions", "{\"namespaces\":[\"chat\"],\"durable\":true,"
        + "\"name\":\"n\"}")).get("subscription_id").getAsString();
    assertRefusal(400, "name", "is the name of a live durable subscription of another scope",
        http.post("/v1/spaces/s/subscriptions", "{\"namespaces\":[\"other\"],\"durable\":true,\"name\":\"n\"}"));
    assertRefusal(400, "up_to", "", http.post("/v1/spaces/s/subscriptions/" + id + "/ack", "{\"up_to\":5}"));
    assertRefusal(400, "subscription_id", "must be left out or be the path's subscription",
        http.post("/v1/spaces/s/subscriptions/" + id + "/ack", "{\"subscription_id\":\"x\",\"up_to\":0}"));

    assertEquals(1, t.blocking().listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("s").build())
        .getSubscriptionsCount(), "only the one good subscription was stored");
  }

  @Test
  void theFeedsOfASpaceComeInPagesFollowingNext() {
    List<FeedId> feeds = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      FeedId id = TestBlocks.feedId();
      feeds.add(id);
      t.blocking().append(AppendRequest.newBuilder(Wire.append("s", Wire.blocks(id, "a", 0, i + 1)))
          .setNamespace(i % 2 == 0 ? "even" : "odd").build());
    }
    feeds.sort(java.util.Comparator.comparing(FeedId::value));

    List<String> seen = new ArrayList<>();
    JsonObject page = ok(http.get("/v1/spaces/s/feeds?limit=2"));
    while (true) {
      page.getAsJsonArray("feeds").forEach(f -> seen.add(f.getAsJsonObject().get("feed_id").getAsString()));
      if (!page.get("has_more").getAsBoolean()) {
        assertFalse(page.has("next"));
        break;
      }
      page = ok(http.get("/v1/spaces/s/feeds?limit=2&after=" + page.get("next").getAsString()));
    }
    assertEquals(feeds.stream().map(FeedId::value).toList(), seen);
    assertEquals(15, page.get("max_position").getAsLong());

    JsonArray even = ok(http.get("/v1/spaces/s/feeds?namespace=even")).getAsJsonArray("feeds");
    assertEquals(3, even.size());
    JsonObject first = even.get(0).getAsJsonObject();
    assertEquals("even", first.get("namespace").getAsString());
    assertTrue(first.get("block_count").getAsLong() >= 1);
    assertTrue(first.get("last_position").getAsLong() >= 1);

    assertRefusal(400, "after", "", http.get("/v1/spaces/s/feeds?after=not-a-ulid"));
    assertRefusal(429, "query-limit", "limit of the feed list", http.get("/v1/spaces/s/feeds?limit=1001"));
    assertRefusal(400, "query", "may only name after, limit, namespace", http.get("/v1/spaces/s/feeds?cursor=3"));
  }

  @Test
  void theServerInfoIsGetServerInfos() {
    GetServerInfoResponse grpc = t.blocking().getServerInfo(GetServerInfoRequest.getDefaultInstance());

    JsonObject info = ok(http.get("/v1/server"));

    assertEquals(grpc.getVersion(), info.get("version").getAsString());
    assertEquals(grpc.getMaxMessageBytes(), info.get("max_message_bytes").getAsInt());
    assertEquals(grpc.getBlocksPerAppend(), info.get("blocks_per_append").getAsInt());
    assertEquals(grpc.getBlockBytes(), info.get("block_bytes").getAsInt());
    assertEquals(grpc.getQueryLimit(), info.get("query_limit").getAsInt());
    assertEquals(grpc.getMaxResponseBytes(), info.get("max_response_bytes").getAsLong());
  }

  @Test
  void compactAndRetentionRemoveHistoryAndRaiseTheFloor() {
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 10)));

    JsonObject compacted = ok(http.post("/v1/spaces/s/compact", "{\"up_to\":4}"));
    assertEquals(4, compacted.get("floor").getAsLong());
    assertEquals(4, compacted.get("removed").getAsLong());
    assertEquals(410, http.get("/v1/spaces/s/blocks?after=2").statusCode());

    JsonObject retained = ok(http.put("/v1/spaces/s/retention", "{\"blocks\":2}"));
    assertEquals(2, retained.get("blocks").getAsLong());
    assertEquals(0, retained.get("age_ms").getAsLong());
    assertFalse(retained.get("server_default").getAsBoolean());
    assertEquals(8, retained.get("floor").getAsLong());
    assertEquals(List.of(9L, 10L), HttpBlocksTest.positions(Http.json(http.get("/v1/spaces/s/blocks"))));

    JsonObject back = ok(http.put("/v1/spaces/s/retention", "{\"server_default\":true}"));
    assertTrue(back.get("server_default").getAsBoolean());
    assertEquals(8, back.get("floor").getAsLong(), "the floor never goes back");

    assertRefusal(400, "up_to", "must be >= 1", http.post("/v1/spaces/s/compact", "{\"up_to\":0}"));
    assertRefusal(400, "server_default", "must not be given with bounds",
        http.put("/v1/spaces/s/retention", "{\"server_default\":true,\"blocks\":3}"));
    assertRefusal(400, "blocks", "must be >= 0", http.put("/v1/spaces/s/retention", "{\"blocks\":-1}"));
    assertEquals(8, Http.json(http.get("/v1/spaces/s/blocks")).get("floor").getAsLong(), "refusals removed nothing");
  }

  @Test
  void anotherMethodOnAKnownPathIs405NamingTheMethodsItTakes() {
    HttpResponse<String> delete = http.send(http.request("/v1/spaces/s/subscriptions").DELETE().build());
    HttpResponse<String> get = http.get("/v1/spaces/s/compact");

    assertEquals(405, delete.statusCode(), delete.body());
    assertEquals("POST, GET", delete.headers().firstValue("Allow").orElse(""));
    assertEquals(405, get.statusCode(), get.body());
    assertEquals("POST", get.headers().firstValue("Allow").orElse(""));
    JsonObject unknown = refused(404, http.get("/v1/spaces/s/nothing"));
    assertTrue(unknown.get("message").getAsString().contains("GET /v1/spaces/{space}/feeds"), unknown.toString());
  }

  static JsonObject ok(HttpResponse<String> response) {
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    return Http.json(response);
  }

  static JsonObject refused(int status, HttpResponse<String> response) {
    assertEquals(status, response.statusCode(), response.body());
    return Http.json(response);
  }

  /** A refusal of {@code status} whose message starts with {@code field} and holds {@code text}. */
  static void assertRefusal(int status, String field, String text, HttpResponse<String> response) {
    String message = refused(status, response).get("message").getAsString();
    assertTrue(message.startsWith(field + " ") && message.contains(text), message);
  }
}
