package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server token: kept across restarts and restores (a rollback), new on a new file (a swap). */
class ServerTokenTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  String token(String space) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId(space).build()).getServerToken();
  }

  @Test
  void everyAnswerOfASpaceCarriesItsOneToken() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String appended = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getServerToken();
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setSpaceId("s").build(), events);

    assertEquals(appended, token("s"));
    assertEquals(appended, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build()).getServerToken());
    assertEquals(appended, t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId("s")
        .addFeedIds(feed.value()).build()).getServerToken());
    assertEquals(appended, events.next().getServerToken());
    assertNotEquals(appended, token("another-space"), "each space has its own token");
  }

  @Test
  void theTokenSurvivesARestart() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String before = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getServerToken();
    t.close();

    t = TestServer.on(dir.resolve("feeds.db")).start();

    assertEquals(before, token("s"));
  }

  @Test
  void aRestoredBackupKeepsTheTokenAndItsPositionsAreHandedOutAgain() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String before = t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2))).getServerToken();
    Path backup = dir.resolve("backup.db");
    t.sqlite.backupTo(backup);
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 2, 3))); // acknowledged, then lost
    t.close();
    Files.delete(dir.resolve("feeds.db"));
    Files.copy(backup, dir.resolve("feeds.db"));

    t = TestServer.on(dir.resolve("feeds.db")).start();
    QueryResponse restored = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build());

    assertEquals(before, restored.getServerToken(), "a rollback keeps the token");
    assertEquals(2, restored.getMaxPosition());
    FeedId other = TestBlocks.feedId();
    assertEquals(List.of(3L), t.blocking().append(Wire.append("s", Wire.block(other, "b", 0))).getPositionsList());
  }

  @Test
  void aCopyOfTheClosedFileKeepsTheToken() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String before = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getServerToken();
    t.close();
    Files.copy(dir.resolve("feeds.db"), dir.resolve("copy.db"));

    t = TestServer.on(dir.resolve("copy.db")).start();

    assertEquals(before, token("s"));
  }

  @Test
  void aSpaceReportsBeforeItExistsTheTokenItKeepsOnceItDoes() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String read = token("later");
    String watched = Calls.firstWatchEvent(t.channel, WatchRequest.newBuilder().setSpaceId("later").build())
        .getServerToken();
    String listed = t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("later").build()).getServerToken();

    String appended = t.blocking().append(Wire.append("later", Wire.block(feed, "a", 0))).getServerToken();

    assertEquals(read, watched);
    assertEquals(read, listed);
    assertEquals(read, appended);
    t.close();
    t = TestServer.on(dir.resolve("feeds.db")).start();
    assertEquals(read, token("later"));
  }

  @Test
  void aCopyOfTheFileReportsTheSameTokensOfSpacesItDoesNotHoldAndANewFileOthers() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String unborn = token("unborn");
    t.close();
    Files.copy(dir.resolve("feeds.db"), dir.resolve("copy.db"));

    t = TestServer.on(dir.resolve("copy.db")).start();
    assertEquals(unborn, token("unborn"));
    t.close();
    t = TestServer.on(dir.resolve("fresh.db")).start();
    assertNotEquals(unborn, token("unborn"), "another file, another secret, other tokens");
  }

  @Test
  void aFreshFileHasANewToken() {
    t = TestServer.on(dir.resolve("feeds.db")).start();
    String before = t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getServerToken();
    t.close();

    t = TestServer.on(dir.resolve("fresh.db")).start();

    assertNotEquals(before, token("s"), "a swapped store has a new token");
  }
}
