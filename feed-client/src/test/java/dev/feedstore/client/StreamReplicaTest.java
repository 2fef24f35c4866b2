package dev.feedstore.client;

import static dev.feedstore.client.testing.Convergence.data;
import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.StreamName;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.RestartableServer;
import dev.feedstore.testing.SyncDriver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams are feeds: a replica that replicates the streams' space holds every Durable Stream as a
 * feed (its id derived from the stream's name), readable offline, and a block the replica appends
 * to such a feed reaches the stream's HTTP readers once pushed, a waiting long-poll among them. A
 * replica keeps a stream's blocks that retention removed on the authority, beside the stream's
 * later blocks, which never take their keys.
 */
class StreamReplicaTest {
  private static final SpaceId STREAMS = SpaceId.of(STREAMS_SPACE.defaultValue());

  @TempDir Path dir;
  private RestartableServer authority;
  private Replicas replicas;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void setUp() {
    authority = RestartableServer.inProcess(dir, builder -> builder.http("127.0.0.1", 0));
    replicas = new Replicas(dir);
  }

  @AfterEach
  void tearDown() {
    replicas.close();
    authority.close();
  }

  private HttpResponse<String> send(String method, String name, String query, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + authority.httpPort()
        + "/v1/stream/" + name + query)).timeout(Duration.ofSeconds(30)).header("Content-Type", "text/plain");
    try {
      return http.send(request.method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aReplicaOfTheStreamsSpaceHoldsEachStreamOfflineAndItsAppendsReachHttpReaders() throws Exception {
    assertEquals(201, send("PUT", "chat/room-1", "", "hello ").statusCode());
    assertEquals(204, send("POST", "chat/room-1", "", "from http").statusCode());
    assertEquals(201, send("PUT", "chat/room-2", "", "other room").statusCode());
    Replica replica = replicas.open("desk");
    replica.replicateSpace(STREAMS, Replication.fullHistory());
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), STREAMS);
    driver.untilQuiet(10, replica);

    authority.stop();
    FeedId room1 = StreamName.of("chat/room-1").feedId(0);
    FeedId room2 = StreamName.of("chat/room-2").feedId(0);
    assertEquals(List.of("hello ", "from http"), data(replica, STREAMS, room1), "offline, on the replica");
    assertEquals(List.of("other room"), data(replica, STREAMS, room2));
    replica.append(STREAMS, room1, BlockData.utf8(" and from the replica"));

    authority.start();
    String tail = send("HEAD", "chat/room-1", "", "").headers().firstValue("Stream-Next-Offset").orElseThrow();
    CompletableFuture<HttpResponse<String>> poll = http.sendAsync(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + authority.httpPort() + "/v1/stream/chat/room-1?offset=" + tail + "&live=long-poll"))
        .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
    driver.untilQuiet(10, replica);

    HttpResponse<String> woken = poll.get(30, TimeUnit.SECONDS);
    assertEquals(200, woken.statusCode());
    assertEquals(" and from the replica", woken.body());
    assertEquals("hello from http and from the replica", send("GET", "chat/room-1", "?offset=-1", "").body());
    Block pushed = replica.read(STREAMS, room1).get(2);
    assertEquals(String.format("%016d_%016d", pushed.position().value(), 0),
        woken.headers().firstValue("Stream-Next-Offset").orElseThrow(), "the offset is the block's position");
    assertEquals(204, send("POST", "chat/room-1", "", " after the replica").statusCode(),
        "the server keys its next block after the replica's");
  }

  @Test
  void aStreamWhoseBlocksRetentionRemovedGoesOnWithKeysNoReplicaHoldsAlready() {
    assertEquals(201, send("PUT", "chat/room-1", "", "a0 ").statusCode());
    assertEquals(204, send("POST", "chat/room-1", "", "a1 ").statusCode());
    Replica replica = replicas.open("desk");
    replica.replicateSpace(STREAMS, Replication.fullHistory());
    SyncDriver<Replica> driver = Replicas.driver(authority.channel(), STREAMS);
    driver.untilQuiet(10, replica);
    FeedId room = StreamName.of("chat/room-1").feedId(0);
    assertEquals(List.of("a0 ", "a1 "), data(replica, STREAMS, room));

    assertEquals(2, FeedSyncGrpc.newBlockingStub(authority.channel()).compact(CompactRequest.newBuilder()
        .setSpaceId(STREAMS.value()).setUpTo(2).build()).getFloor(), "every block of the stream is gone");
    assertEquals(204, send("POST", "chat/room-1", "", "b0 ").statusCode());
    assertEquals(204, send("POST", "chat/room-1", "", "b1").statusCode());
    driver.untilQuiet(10, replica);

    List<Block> held = replica.read(STREAMS, room);
    assertEquals(List.of("a0 ", "a1 ", "b0 ", "b1"), held.stream().map(b -> b.data().toStringUtf8()).toList(),
        "the replica keeps the removed blocks and adds the new ones beside them");
    assertEquals(List.of(1L, 2L, 3L, 4L), held.stream().map(b -> b.position().value()).toList());
    assertEquals(4, held.stream().map(Block::key).distinct().count(), "four blocks, four keys: " + held);
    assertEquals(List.of(), replica.refused(STREAMS));
    assertEquals("b0 b1", send("GET", "chat/room-1", "?offset=-1", "").body());
  }
}
