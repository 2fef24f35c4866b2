package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.NamespacedFeeds;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import io.grpc.Status;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A live query runs under its caller's grants: a scope beyond a namespace grant is refused whole. */
class LiveQueryGrantsTest {
  @TempDir Path dir;
  TestServer t;

  @BeforeEach
  void start() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("chat-reader") + " read team namespaces=chat\n"
        + AccessTokens.sha256("owner") + " admin team\n");
    t = TestServer.on(dir.resolve("feeds.db")).accessTokens(AccessTokens.read(tokens)).loopback().http().start();
    NamespacedFeeds.append(t.blocking("owner"));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  EventRecorder<LiveQueryEvent> liveQuery(String token, String text) {
    EventRecorder<LiveQueryEvent> events = new EventRecorder<>();
    FeedSyncGrpc.newStub(t.channel(token)).liveQuery(LiveQueryRequest.newBuilder().setRequestId("r")
        .setSpaceId(NamespacedFeeds.SPACE).setText(text).build(), events);
    return events;
  }

  @Test
  void aQueryOfAGrantedNamespaceIsServedAndOneBeyondItIsPermissionDenied() {
    EventRecorder<LiveQueryEvent> chat = liveQuery("chat-reader", "namespace:chat");
    assertTrue(chat.next().hasAck());

    for (String beyond : new String[] {"namespace:notes", "", "namespace:chat namespace:notes"}) {
      Status status = liveQuery("chat-reader", beyond).awaitEnd();
      assertEquals(Status.Code.PERMISSION_DENIED, status.getCode(), beyond + ": " + status);
    }
    assertTrue(liveQuery("owner", "").next().hasAck(), "a space-wide grant reads the whole space");
  }

  @Test
  void anEventSourceMayPassItsTokenAsAccessTokenAndIsHeldToItsGrants() {
    String path = "/v1/spaces/team/live?access_token=chat-reader&q=";
    try (SseReader chat = SseReader.open(t.http(), path + "namespace:chat")) {
      assertEquals(200, chat.response().statusCode());
      assertEquals("ack", chat.next().name());
    }
    HttpResponse<String> notes = t.http().get(path + "namespace:notes");
    assertEquals(403, notes.statusCode(), notes.body());
    assertEquals(401, t.http().get("/v1/spaces/team/live?access_token=nobody&q=namespace:chat").statusCode());
  }
}
