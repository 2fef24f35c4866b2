package dev.feedstore.client;

import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.testing.FromScratch;
import dev.feedstore.client.testing.QueryRecorder;
import dev.feedstore.client.testing.Replicas;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Replication;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.StreamName;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica of the streams' space that appends to the feed of a stream closed meanwhile: the
 * authority refuses those blocks, the replica lists them as refused ({@link Replica#refused}), keeps
 * them, and pushes every other block; HTTP readers never see anything after the close, and a live
 * query takes them for no version. A real
 * server over loopback (gRPC and HTTP), real SQLite files, a real sync session.
 */
class ClosedStreamReplicaTest {
  private static final SpaceId STREAMS = SpaceId.of(STREAMS_SPACE.defaultValue());
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  TestServer server;
  Streams streams;
  Replicas replicas;

  @BeforeEach
  void start() {
    server = TestServer.on(dir.resolve("authority.db")).loopback().http().start();
    streams = new Streams(server.http());
    replicas = new Replicas(dir);
  }

  @AfterEach
  void stop() {
    replicas.close();
    server.close();
  }

  private String target() {
    return "127.0.0.1:" + server.server.port();
  }

  private static boolean positioned(Replica replica, FeedId feed) {
    return replica.read(STREAMS, feed).stream().allMatch(Block::isPositioned);
  }

  @Test
  void blocksAppendedToAClosedStreamsFeedAreRefusedAndKeptAndTheOthersArePushed() throws Exception {
    streams.create("chat", "text/plain", "hello");
    streams.create("other", "text/plain", "x");
    FeedId chat = StreamName.of("chat").feedId(0);
    FeedId other = StreamName.of("other").feedId(0);
    Replica replica = replicas.open("desk");
    replica.replicateSpace(STREAMS, Replication.fullHistory());
    try (SyncSession session = replica.connect(target(), ConnectOptions.DEFAULTS)) {
      assertTrue(session.awaitSynced(WAIT), session.status().toString());
    }
    LiveQuery feeds = LiveQuery.parse("space:" + STREAMS.value());
    QueryRecorder recorder = new QueryRecorder(feeds);
    LiveQueryRegistration live = replica.liveQuery(feeds, recorder);
    assertEquals(204, streams.append("chat", "text/plain", "", "Stream-Closed", "true").statusCode());

    List<BlockKey> late = replica.append(STREAMS, chat, List.of(BlockData.utf8(" late"), BlockData.utf8(" later")));
    replica.append(STREAMS, other, BlockData.utf8(" y"));
    try (SyncSession session = replica.connect(target(), ConnectOptions.DEFAULTS)) {
      Await.until("the other stream's block pushed and the closed stream's settled", WAIT,
          () -> positioned(replica, other) && (replica.refused(STREAMS).size() == 2 || positioned(replica, chat)));
      assertFalse(positioned(replica, chat), "the authority took blocks after the close");
      List<RefusedBlock> refused = replica.refused(STREAMS);
      assertEquals(late, refused.stream().map(RefusedBlock::key).toList());
      assertTrue(refused.get(0).reason().contains("STREAM_CLOSED") && refused.get(0).reason().contains("'chat'"),
          refused.get(0).reason());
      Await.until("the status reports the refusal", WAIT, () -> session.status().refusals().stream()
          .anyMatch(r -> r.held() == Refusal.Held.BLOCKS && r.description().contains("closed")));
      assertEquals(SyncStatus.State.REFUSED, session.status().state(), session.status().toString());
    }

    assertEquals("x y", streams.read("other", "offset=-1").body());
    assertEquals("hello", streams.read("chat", "offset=-1").body(), "nothing after the close is served");
    assertEquals(List.of("hello", " late", " later"), replica.read(STREAMS, chat).stream()
        .map(b -> b.data().toStringUtf8()).toList(), "the replica keeps its refused blocks");
    assertEquals(3, server.blocking().query(dev.feedstore.proto.v1.QueryRequest.newBuilder().setSpaceId("streams")
        .build()).getBlocksCount(), "the authority holds none of them");

    // A refused block is no version: the stream's feed, as a live query's document, stays at "hello".
    assertTrue(live.awaitCurrent(WAIT));
    Row chatRow = recorder.rows().stream().filter(row -> row.id().equals(DocumentId.of(chat.value()))).findFirst()
        .orElseThrow();
    assertEquals(replica.read(STREAMS, chat).get(0).key(), chatRow.version().block());
    assertEquals(FromScratch.rows(replica, feeds, System.currentTimeMillis()), recorder.rows());
    assertTrue(recorder.events().stream().anyMatch(e -> e instanceof LiveQueryEvent.Reset),
        "learning the close reads the query again: " + recorder.events());
  }
}
