package dev.feedstore.server;

import static dev.feedstore.server.HttpCallsTest.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may make the HTTP forms of the other calls: the rules of their gRPC calls, with the API's
 * 401 and 403. Each endpoint is tried allowed and refused, and a refused call changes nothing.
 */
class HttpCallsAccessTest {
  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  TestServer t;

  @BeforeEach
  void start() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("writer-secret") + " write a\n"
        + AccessTokens.sha256("reader-secret") + " read *\n"
        + AccessTokens.sha256("admin-secret") + " admin a\n");
    t = TestServer.on(dir.resolve("feeds.db")).http().accessTokens(AccessTokens.read(tokens)).start();
    t.blocking("writer-secret").append(Wire.append("a", Wire.blocks(feed, "x", 0, 6)));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  Http as(String token) {
    return t.http().withToken(token);
  }

  @Test
  void subscriptionsNeedATokenThatMayReadTheSpace() {
    String body = "{\"feed_ids\":[\"" + feed.value() + "\"],\"durable\":true,\"name\":\"w\"}";
    String id = ok(as("reader-secret").post("/v1/spaces/a/subscriptions", body)).get("subscription_id").getAsString();

    assertDenied(401, "UNAUTHENTICATED", "needs an access token", t.http().post("/v1/spaces/a/subscriptions", body));
    assertDenied(401, "UNAUTHENTICATED", "not one this server knows",
        as("guess").post("/v1/spaces/a/subscriptions", body));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'",
        as("writer-secret").post("/v1/spaces/b/subscriptions", body));
    assertDenied(401, "UNAUTHENTICATED", "needs an access token",
        t.http().post("/v1/spaces/a/subscriptions/" + id + "/ack", "{\"up_to\":3}"));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'",
        as("writer-secret").post("/v1/spaces/b/subscriptions/" + id + "/ack", "{\"up_to\":3}"));
    assertDenied(401, "UNAUTHENTICATED", "needs an access token", t.http().get("/v1/spaces/a/subscriptions"));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'",
        as("writer-secret").get("/v1/spaces/b/subscriptions"));
    assertEquals(1, t.blocking("reader-secret").listSubscriptions(ListSubscriptionsRequest.newBuilder()
        .setSpaceId("a").build()).getSubscriptionsCount(), "refused subscriptions stored nothing");
    assertEquals(0, t.blocking("reader-secret").listSubscriptions(ListSubscriptionsRequest.newBuilder()
        .setSpaceId("a").build()).getSubscriptions(0).getAcked(), "refused acknowledgements moved nothing");

    assertEquals(3, ok(as("writer-secret").post("/v1/spaces/a/subscriptions/" + id + "/ack", "{\"up_to\":3}"))
        .get("acked").getAsLong());
    assertEquals(1, ok(as("reader-secret").get("/v1/spaces/a/subscriptions")).getAsJsonArray("subscriptions").size());
  }

  @Test
  void theFeedListNeedsATokenThatMayReadTheSpace() {
    assertEquals(1, ok(as("reader-secret").get("/v1/spaces/a/feeds")).getAsJsonArray("feeds").size());
    assertEquals(1, ok(as("writer-secret").get("/v1/spaces/a/feeds")).getAsJsonArray("feeds").size());

    assertDenied(401, "UNAUTHENTICATED", "needs an access token", t.http().get("/v1/spaces/a/feeds"));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'", as("admin-secret").get("/v1/spaces/b/feeds"));
  }

  @Test
  void theServerInfoNeedsATokenTheServerKnowsWhateverItGrants() {
    assertEquals(200, as("writer-secret").get("/v1/server").statusCode());
    assertEquals(200, as("admin-secret").get("/v1/server").statusCode());

    assertDenied(401, "UNAUTHENTICATED", "needs an access token", t.http().get("/v1/server"));
    assertDenied(401, "UNAUTHENTICATED", "not one this server knows", as("guess").get("/v1/server"));
  }

  @Test
  void compactAndRetentionNeedAnAdminGrantForTheSpace() {
    for (String token : new String[] {"writer-secret", "reader-secret"}) {
      assertDenied(403, "PERMISSION_DENIED", "Compact removes history of space 'a' and needs an admin grant for it",
          as(token).post("/v1/spaces/a/compact", "{\"up_to\":2}"));
      assertDenied(403, "PERMISSION_DENIED", "SetRetention removes history of space 'a' and needs an admin grant",
          as(token).put("/v1/spaces/a/retention", "{\"blocks\":1}"));
    }
    assertDenied(401, "UNAUTHENTICATED", "needs an access token",
        t.http().post("/v1/spaces/a/compact", "{\"up_to\":2}"));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'",
        as("admin-secret").post("/v1/spaces/b/compact", "{\"up_to\":2}"));
    assertDenied(403, "PERMISSION_DENIED", "may not use space 'b'",
        as("admin-secret").put("/v1/spaces/b/retention", "{\"blocks\":1}"));
    assertEquals(6, t.blocking("reader-secret").query(QueryRequest.newBuilder().setSpaceId("a").build())
        .getBlocksCount(), "refused compactions and retentions removed nothing");

    assertEquals(2, ok(as("admin-secret").post("/v1/spaces/a/compact", "{\"up_to\":2}")).get("floor").getAsLong());
    assertEquals(5, ok(as("admin-secret").put("/v1/spaces/a/retention", "{\"blocks\":1}")).get("floor").getAsLong());
  }

  private static void assertDenied(int status, String code, String text, HttpResponse<String> response) {
    assertEquals(status, response.statusCode(), response.body());
    JsonObject body = Http.json(response);
    assertEquals(code, body.get("code").getAsString());
    assertTrue(body.get("message").getAsString().contains(text), body.toString());
  }
}
