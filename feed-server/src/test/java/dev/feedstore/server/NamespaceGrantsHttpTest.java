package dev.feedstore.server;

import static dev.feedstore.server.testing.NamespacedFeeds.SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonElement;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.NamespacedFeeds;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grants per namespace from the tokens file on the HTTP edge over loopback: pages, Server-Sent
 * Events and appends follow the rules of Query, Watch and Append (403 naming the namespace or feed
 * beyond the grants), the feed list and subscriptions those of ListFeeds, Subscribe and Ack, and
 * Durable Streams, whose feeds have no namespace, need a space-wide grant of
 * the streams' space.
 */
class NamespaceGrantsHttpTest {
  @TempDir Path dir;
  TestServer t;
  NamespacedFeeds feeds;

  @BeforeEach
  void start() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("chat-reader") + " read team,streams namespaces=chat\n"
        + AccessTokens.sha256("chat-writer") + " write team namespaces=chat\n"
        + AccessTokens.sha256("owner") + " write team,streams\n");
    t = TestServer.on(dir.resolve("feeds.db")).accessTokens(AccessTokens.read(tokens)).loopback().http().start();
    feeds = NamespacedFeeds.append(t.blocking("owner"));
  }

  @AfterEach
  void stop() {
    t.close();
  }

  @Test
  void aPageOfAGrantedNamespaceIsAnsweredAndOneReachingBeyondIs403NamingIt() {
    Http reader = t.http().withToken("chat-reader");
    HttpResponse<String> chat = reader.get("/v1/spaces/team/blocks?namespace=chat");
    assertEquals(200, chat.statusCode(), chat.body());
    assertEquals(List.of(1L, 2L), positions(chat));
    assertEquals(6, Http.json(chat).get("max_position").getAsLong(), "positions stay space-wide");
    assertEquals(200, reader.get("/v1/spaces/team/blocks?feed=" + feeds.chat().value()).statusCode());

    String wide = t.blocking("owner").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE).addNamespaces("chat")
        .addNamespaces("notes").build()).getSubscriptionId();
    assertForbidden(reader.get("/v1/spaces/team/blocks?namespace=notes"), "may not read namespace 'notes' of space"
        + " 'team'; the token may read only namespace 'chat' there");
    assertForbidden(reader.get("/v1/spaces/team/blocks?feed=" + feeds.chat().value() + "&feed=" + feeds.notes().value()),
        "may not read namespace 'notes' of space 'team' (feed " + feeds.notes().value() + ")");
    assertForbidden(reader.get("/v1/spaces/team/blocks?feed=" + feeds.plain().value()), "has no namespace");
    assertForbidden(reader.get("/v1/spaces/team/blocks?subscription=" + wide), "may not read namespace 'notes'");
    assertForbidden(reader.get("/v1/spaces/team/blocks"), "Query reads the whole space");
  }

  @Test
  void anEventStreamOfAGrantedNamespaceFollowsItAndOneReachingBeyondIs403() {
    Http reader = t.http().withToken("chat-reader");
    try (SseReader chat = SseReader.open(reader, "/v1/spaces/team/events?namespace=chat")) {
      assertEquals(200, chat.response().statusCode());
      assertEquals(List.of(1L, 2L), chat.positions(2));
      t.blocking("owner").append(NamespacedFeeds.append(Optional.empty(), feeds.notes(), 2, 1));
      t.blocking("owner").append(NamespacedFeeds.append(Optional.empty(), feeds.chat(), 2, 1));
      assertEquals(List.of(8L), chat.positions(1), "the block of notes at 7 is not in the scope");
    }

    assertForbidden(reader.get("/v1/spaces/team/events?namespace=notes"), "may not read namespace 'notes'");
    assertForbidden(reader.get("/v1/spaces/team/events"), "Watch reads the whole space");
    assertForbidden(reader.get("/v1/spaces/team/events?feed=" + TestBlocks.feedId().value()), "is not in space 'team'"
        + " yet");
  }

  @Test
  void theFeedListOfAGrantedNamespaceIsAnsweredAndTheWholeSpaceOrAnotherNamespaceIs403() {
    Http reader = t.http().withToken("chat-reader");
    HttpResponse<String> chat = reader.get("/v1/spaces/team/feeds?namespace=chat");
    assertEquals(200, chat.statusCode(), chat.body());
    assertEquals(List.of(feeds.chat().value()), StreamSupport.stream(Http.json(chat).getAsJsonArray("feeds")
        .spliterator(), false).map(feed -> feed.getAsJsonObject().get("feed_id").getAsString()).toList());

    assertForbidden(reader.get("/v1/spaces/team/feeds"), "ListFeeds lists every feed of the space (it names no"
        + " namespace), which needs a space-wide read grant of space 'team'; the token may read only namespace"
        + " 'chat' there");
    assertForbidden(reader.get("/v1/spaces/team/feeds?namespace=notes"), "may not read namespace 'notes'");
    assertEquals(3, Http.json(t.http().withToken("owner").get("/v1/spaces/team/feeds")).getAsJsonArray("feeds")
        .size());
  }

  @Test
  void aSubscriptionIsCheckedWhenMadeAndWhenAcknowledged() {
    Http reader = t.http().withToken("chat-reader");
    HttpResponse<String> chatOnly = reader.post("/v1/spaces/team/subscriptions", "{\"namespaces\":[\"chat\"],"
        + "\"durable\":true,\"name\":\"chat\"}");
    assertEquals(200, chatOnly.statusCode(), chatOnly.body());
    String chatId = Http.json(chatOnly).get("subscription_id").getAsString();
    assertEquals(2, Http.json(reader.post("/v1/spaces/team/subscriptions/" + chatId + "/ack", "{\"up_to\":2}"))
        .get("acked").getAsLong());

    assertForbidden(reader.post("/v1/spaces/team/subscriptions", "{\"namespaces\":[\"chat\",\"notes\"]}"),
        "may not read namespace 'notes' of space 'team'");
    assertForbidden(reader.post("/v1/spaces/team/subscriptions", "{\"namespaces\":[\"chat\"],\"feed_ids\":[\""
        + feeds.plain().value() + "\"]}"), "feed " + feeds.plain().value() + " of space 'team' has no namespace");

    // A subscription another caller made, wider than this caller's grants: its id grants nothing.
    String wide = t.blocking("owner").subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE).addNamespaces("chat")
        .addNamespaces("notes").setDurable(true).setName("worker").build()).getSubscriptionId();
    assertForbidden(reader.post("/v1/spaces/team/subscriptions/" + wide + "/ack", "{\"up_to\":4}"),
        "may not read namespace 'notes'");
    HttpResponse<String> listed = reader.get("/v1/spaces/team/subscriptions");
    assertEquals(200, listed.statusCode(), "any grant of the space lists its durable subscriptions: " + listed.body());
    assertEquals(List.of("chat 2", "worker 0"), StreamSupport.stream(Http.json(listed).getAsJsonArray("subscriptions")
        .spliterator(), false).map(JsonElement::getAsJsonObject)
        .map(sub -> sub.get("name").getAsString() + " " + sub.get("acked").getAsLong()).sorted().toList(),
        "the refused subscriptions stored nothing and the refused acknowledgement moved nothing");
  }

  @Test
  void anAppendCommitsToAGrantedNamespaceAndIs403ElsewhereWritingNothing() {
    Http writer = t.http().withToken("chat-writer");
    assertEquals(200, writer.append(SPACE, feeds.chat().value(), "a", 2, 1).statusCode());
    FeedId created = TestBlocks.feedId();
    assertEquals(200, post(writer, created, "chat").statusCode());

    assertForbidden(writer.append(SPACE, feeds.notes().value(), "a", 2, 1), "may not Append to namespace 'notes' of"
        + " space 'team' (feed " + feeds.notes().value() + "); the token may read only namespace 'chat' and write only"
        + " namespace 'chat' there");
    assertForbidden(post(writer, feeds.notes(), "chat"), "may not Append to namespace 'notes'");
    assertForbidden(writer.append(SPACE, feeds.plain().value(), "a", 2, 1), "has no namespace");
    FeedId elsewhere = TestBlocks.feedId();
    assertForbidden(post(writer, elsewhere, "notes"), "may not Append to namespace 'notes'");
    assertForbidden(t.http().withToken("chat-reader").append(SPACE, feeds.chat().value(), "a", 3, 1),
        "may read space 'team' but not Append to it");

    List<String> listed = t.blocking("owner").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(SPACE).build())
        .getFeedsList().stream().map(feed -> feed.getFeedId() + " " + feed.getNamespace()).toList();
    assertTrue(listed.contains(created.value() + " chat"), listed.toString());
    assertTrue(listed.contains(feeds.notes().value() + " notes"), listed.toString());
    assertEquals(4, listed.size(), "the refused appends created no feed: " + listed);
    assertEquals(8, Http.json(t.http().withToken("owner").get("/v1/spaces/team/blocks")).get("max_position")
        .getAsLong(), "the refused appends wrote nothing");
  }

  @Test
  void durableStreamsNeedASpaceWideGrantOfTheStreamsSpace() {
    Streams owner = new Streams(t.http().withToken("owner"));
    assertEquals(201, owner.create("chat/room-1", "application/json", "").statusCode());
    assertEquals(204, owner.append("chat/room-1", "application/json", "{\"text\": \"hi\"}").statusCode());
    Streams reader = new Streams(t.http().withToken("chat-reader"));

    assertForbidden(reader.read("chat/room-1", "offset=-1"), "StreamRead uses a Durable Stream, whose feed has no"
        + " namespace, which needs a space-wide read grant of space 'streams'; the token may read only namespace"
        + " 'chat' there");
    assertForbidden(reader.append("chat/room-1", "application/json", "{\"text\": \"no\"}"), "may read space"
        + " 'streams' but not StreamAppend to it");
    assertForbidden(new Streams(t.http().withToken("chat-writer")).read("chat/room-1", "offset=-1"),
        "may not use space 'streams'");
    assertEquals("[{\"text\": \"hi\"}]", owner.read("chat/room-1", "offset=-1").body());
  }

  private static HttpResponse<String> post(Http http, FeedId feed, String namespace) {
    return http.post("/v1/spaces/team/feeds/" + feed.value() + "/blocks", "{\"namespace\":\"" + namespace
        + "\",\"blocks\":[{\"actor_id\":\"w\",\"sequence\":0,\"data\":\"aGk=\"}]}");
  }

  private static void assertForbidden(HttpResponse<String> response, String text) {
    assertEquals(403, response.statusCode(), response.body());
    assertEquals("PERMISSION_DENIED", Http.json(response).get("code").getAsString());
    String message = Http.json(response).get("message").getAsString();
    assertTrue(message.contains(text), message);
  }

  private static List<Long> positions(HttpResponse<String> page) {
    return StreamSupport.stream(Http.json(page).getAsJsonArray("blocks").spliterator(), false)
        .map(JsonElement::getAsJsonObject).map(block -> block.get("position").getAsLong()).toList();
  }
}
