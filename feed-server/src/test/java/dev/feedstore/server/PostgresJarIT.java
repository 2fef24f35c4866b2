package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.LiveQueryView;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.QueryOracle;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.Streams;
import dev.feedstore.server.testing.Tasks;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar over PostgreSQL: {@code java -jar feed-server.jar --postgres URL --port PORT}, one
 * process or two on one database.
 */
class PostgresJarIT {
  @TempDir Path dir;
  private final List<ServerProcess> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void stop() {
    channels.forEach(ManagedChannel::shutdownNow);
    servers.forEach(ServerProcess::close);
  }

  @Test
  void twoProcessesOnOneDatabaseServeTheSameStore() throws Exception {
    String url = PostgresServer.newDatabase();
    FeedSyncGrpc.FeedSyncBlockingStub a = start("a", url);
    FeedSyncGrpc.FeedSyncBlockingStub b = start("b", url);
    FeedId feed = TestBlocks.feedId();

    assertEquals(List.of(1L, 2L), a.append(Wire.append("s", Wire.blocks(feed, "x", 0, 2))).getPositionsList());
    assertEquals(List.of(3L), b.append(Wire.append("s", Wire.block(feed, "x", 2))).getPositionsList());

    assertEquals(3, b.query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocksCount());
    assertEquals(a.query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken(),
        b.query(QueryRequest.newBuilder().setSpaceId("s").build()).getServerToken(), "one store, one token");
    String database = url.substring("jdbc:postgresql://".length(), url.indexOf('?'));
    assertTrue(servers.get(0).output().contains("PostgreSQL " + database + " (schema version"), servers.get(0).output());
  }

  @Test
  void twoProcessesOnOneDatabaseServeOneDurableStream() throws Exception {
    String url = PostgresServer.newDatabase();
    Streams viaA = new Streams(Http.on(startWithHttp("a", url)));
    Streams viaB = new Streams(Http.on(startWithHttp("b", url)));

    assertEquals(201, viaA.create("chat/room-1", "text/plain", "hello ").statusCode());
    HttpResponse<String> appended = viaB.append("chat/room-1", "text/plain", "world");
    assertEquals(204, appended.statusCode(), appended.body());
    HttpResponse<String> read = viaA.read("chat/room-1", "offset=-1");
    assertEquals("hello world", read.body());
    assertEquals(Streams.offset(appended), Streams.offset(read));
  }

  @Test
  void aChangeCommittedThroughOneProcessReachesLiveQueriesOnTheOtherOverGrpcAndSse() throws Exception {
    String url = PostgresServer.newDatabase();
    start("a", url);
    int httpB = startWithHttp("b", url);
    Tasks tasks = new Tasks(FeedSyncGrpc.newBlockingStub(channels.get(0)).withDeadlineAfter(60, TimeUnit.SECONDS));
    ManagedChannel b = channels.get(1);
    tasks.append("1:open:5", "2:open:3");

    LiveQueryView grpc = new LiveQueryView(LiveQueryProcessIT.QUERY).open(FeedSyncGrpc.newStub(b)).awaitReady();
    String path = "/v1/spaces/s/live?q=" + URLEncoder.encode(LiveQueryProcessIT.TEXT, StandardCharsets.UTF_8);
    try (SseReader sse = SseReader.open(Http.on(httpB), path)) {
      assertEquals("ack", sse.next().name());
      sse.next("ready");
      long next = tasks.append("3:open:1", "1:done:5");
      grpc.awaitPosition(next);
      assertEquals(QueryOracle.expected(FeedSyncGrpc.newBlockingStub(b), LiveQueryProcessIT.QUERY, next), grpc.rows());
      SseReader.Event changes = sse.next("changes");
      assertTrue(changes.id().startsWith(next + "."), "stamped with the position committed through the other process: "
          + changes);
    }
  }

  @Test
  void aDatabaseThatCannotBeReachedStopsTheStartWithOneLine() throws Exception {
    int closed = ServerProcess.freePort();
    ServerProcess server = ServerProcess.startOnPostgres(Files.createDirectories(dir.resolve("down")),
        "jdbc:postgresql://127.0.0.1:" + closed + "/feeds?user=feeds", ServerProcess.freePort());
    servers.add(server);

    assertEquals(1, server.awaitExit(), server.output());
    assertTrue(server.output().contains("cannot start: the database 127.0.0.1:" + closed + "/feeds cannot be reached"),
        server.output());
    assertFalse(server.output().contains("\tat "), "no stack trace:\n" + server.output());
  }

  @Test
  void aPasswordOnTheCommandLineAndTwoStoresAreRefused() throws Exception {
    ServerProcess password = ServerProcess.startOnPostgres(Files.createDirectories(dir.resolve("pw")),
        "jdbc:postgresql://127.0.0.1/feeds?user=feeds&password=secret", ServerProcess.freePort());
    servers.add(password);
    assertEquals(2, password.awaitExit(), password.output());
    assertTrue(password.output().contains("PGPASSWORD") && !password.output().contains("secret"), password.output());

    ServerProcess both = ServerProcess.start(Files.createDirectories(dir.resolve("both")), "feeds.db",
        ServerProcess.freePort(), "--postgres", "jdbc:postgresql://127.0.0.1/feeds");
    servers.add(both);
    assertEquals(2, both.awaitExit(), both.output());
    assertTrue(both.output().contains("--db and --postgres name two stores"), both.output());
  }

  /** Starts a process that also serves the HTTP API; returns its HTTP port once it serves. */
  private int startWithHttp(String name, String url) throws Exception {
    int httpPort = ServerProcess.freePort();
    start(name, url, "--http-port", Integer.toString(httpPort));
    return httpPort;
  }

  private FeedSyncGrpc.FeedSyncBlockingStub start(String name, String url, String... flags) throws Exception {
    int port = ServerProcess.freePort();
    ServerProcess server = ServerProcess.startOnPostgres(Files.createDirectories(dir.resolve(name)), url, port, flags);
    servers.add(server);
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .build();
    channels.add(channel);
    server.awaitServing(channel);
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }
}
