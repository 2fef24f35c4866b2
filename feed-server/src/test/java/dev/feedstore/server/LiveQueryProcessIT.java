package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.testing.ServerProcess;
import io.grpc.ManagedChannel;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live queries over the server jar as a separate process, black-box: a gRPC subscriber and an
 * EventSource-like SSE reader follow one query while appends commit; the process is killed and
 * started again on the same file, and both resume with their last token, without a snapshot.
 */
class LiveQueryProcessIT {
  static final String TEXT = "key:/id where /status = \"open\" order /rank limit 3";
  static final LiveQuery QUERY = LiveQuery.parse("space:s " + TEXT);

  @TempDir Path dir;
  ServerProcess server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Tasks tasks() {
    return new Tasks(FeedSyncGrpc.newBlockingStub(server.channel()).withDeadlineAfter(30, TimeUnit.SECONDS));
  }

  @Test
  void subscribersOfTheJarResumeAfterItIsKilledAndStartedAgain() throws Exception {
    int port = ServerProcess.freePort();
    int httpPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port, "--http-port", Integer.toString(httpPort));
    server.awaitServing();
    ManagedChannel channel = server.channel();
    Tasks tasks = tasks();
    tasks.append("1:open:5", "2:open:3", "3:done:1");

    LiveQueryView grpc = new LiveQueryView(QUERY).open(FeedSyncGrpc.newStub(channel)).awaitReady();
    String path = "/v1/spaces/s/live?q=" + URLEncoder.encode(TEXT, StandardCharsets.UTF_8);
    String lastId;
    try (SseReader sse = SseReader.open(Http.on(httpPort), path)) {
      assertEquals("ack", sse.next().name());
      assertEquals("snapshot", sse.next().name());
      lastId = sse.next("ready").id();
      long next = tasks.append("3:open:1");
      grpc.awaitPosition(next);
      SseReader.Event changes = sse.next("changes");
      assertTrue(changes.id().startsWith(next + "."), changes.toString());
      lastId = changes.id();
    }
    server.restart(); // SIGKILL, then the same command on the same file
    server.awaitServing();
    long last = tasks().append("2:done:3", "4:open:0");

    grpc.open(FeedSyncGrpc.newStub(channel)).awaitPosition(last);
    assertEquals(1, grpc.acksResumed);
    assertEquals(1, grpc.snapshots, "no second snapshot after the restart");
    assertEquals(QueryOracle.expected(FeedSyncGrpc.newBlockingStub(channel), QUERY, last), grpc.rows());

    try (SseReader sse = SseReader.open(Http.on(httpPort), path, "Last-Event-ID", lastId)) {
      SseReader.Event ack = sse.next();
      assertEquals("ack", ack.name());
      assertTrue(ack.json().get("resumed").getAsBoolean(), ack.toString());
      SseReader.Event changes = sse.next();
      assertEquals("changes", changes.name(), "the changes after its token, no snapshot");
      assertEquals("ready", sse.next().name());
    }
  }
}
