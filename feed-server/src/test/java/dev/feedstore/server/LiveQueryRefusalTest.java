package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_CONNECTION;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_PRINCIPAL;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERIES_PER_SERVER;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_MATCHES;
import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_SNAPSHOT_ROWS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a live query is refused with: each limit by its setting, a query that cannot be evaluated by its clause. */
class LiveQueryRefusalTest {
  static final String OPEN = "space:s key:/id where /status = \"open\"";

  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  long sequence;

  TestServer start(ServerSettings.Builder settings) {
    t = TestServer.on(dir.resolve("feeds.db")).settings(settings.set(HEARTBEAT_MS, 3_600_000).build()).start();
    return t;
  }

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  void open(int tasks) {
    for (int i = 0; i < tasks; i++) {
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", sequence++,
          "{\"id\":" + sequence + ",\"status\":\"open\"}")));
    }
  }

  EventRecorder<LiveQueryEvent> liveQuery(String text) {
    return liveQuery(LiveQueryRequest.newBuilder().setRequestId("r").setSpaceId("s").setText(text).build());
  }

  EventRecorder<LiveQueryEvent> liveQuery(LiveQueryRequest request) {
    EventRecorder<LiveQueryEvent> events = new EventRecorder<>();
    t.async().liveQuery(request, events);
    return events;
  }

  static void assertEnded(Status.Code code, String text, EventRecorder<LiveQueryEvent> events) {
    Status status = events.awaitEnd();
    assertEquals(code, status.getCode(), status.toString());
    assertTrue(status.getDescription().contains(text), status.getDescription());
  }

  /** Reads events until ready. */
  static void ready(EventRecorder<LiveQueryEvent> events) {
    while (!events.next().hasReady()) {
      // snapshot events
    }
  }

  @Test
  void eachCountOfOpenQueriesIsASettingNamedWhenReached() {
    start(ServerSettings.newBuilder().set(LIVE_QUERIES_PER_CONNECTION, 2).set(LIVE_QUERIES_PER_PRINCIPAL, 3)
        .set(LIVE_QUERIES_PER_SERVER, 4));
    ready(liveQuery(OPEN));
    ready(liveQuery(OPEN));
    assertEnded(Status.Code.RESOURCE_EXHAUSTED, "live-queries-per-connection limit is 2", liveQuery(OPEN));
  }

  @Test
  void aSnapshotLargerThanTheSettingIsRefusedNamingIt() {
    start(ServerSettings.newBuilder().set(LIVE_QUERY_SNAPSHOT_ROWS, 2));
    open(3);
    assertEnded(Status.Code.RESOURCE_EXHAUSTED, "live-query-snapshot-rows limit is 2", liveQuery(OPEN));
    ready(liveQuery(OPEN + " limit 2"));
  }

  @Test
  void aQueryThatGrowsPastItsMatchesEndsNamingTheSetting() {
    start(ServerSettings.newBuilder().set(LIVE_QUERY_MATCHES, 3));
    open(2);
    EventRecorder<LiveQueryEvent> events = liveQuery(OPEN + " limit 1");
    ready(events);
    open(2);
    assertEnded(Status.Code.RESOURCE_EXHAUSTED, "live-query-matches limit is 3", events);
    assertEnded(Status.Code.RESOURCE_EXHAUSTED, "live-query-matches limit is 3", liveQuery(OPEN + " limit 1"));
  }

  @Test
  void aQueryThatCannotBeEvaluatedIsInvalidNamingTheClause() {
    start(ServerSettings.newBuilder());
    assertEnded(Status.Code.INVALID_ARGUMENT, "filter[0]", liveQuery("space:s where /n < true"));
    assertEnded(Status.Code.INVALID_ARGUMENT, "resume_token", liveQuery(LiveQueryRequest.newBuilder()
        .setRequestId("r").setSpaceId("s").setText(OPEN).setResumeToken("yesterday").build()));
    assertEnded(Status.Code.INVALID_ARGUMENT, "query", liveQuery(LiveQueryRequest.newBuilder()
        .setRequestId("r").setSpaceId("s").build()));
    assertEquals(0, t.server.openLiveQueries());
  }
}
