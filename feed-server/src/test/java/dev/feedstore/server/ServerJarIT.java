package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.Await;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's command, {@code java -jar feed-server/target/feed-server.jar --db feeds.db
 * --port 7070} (on a free port), as a separate process: health turns SERVING, an Append and a Query
 * work over a real channel, SIGTERM ends an open Watch with UNAVAILABLE and the process with exit
 * code 0, and the database reopens with the data.
 */
class ServerJarIT {
  @TempDir Path dir;
  Process process;
  ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void theJarServesAndShutsDownCleanlyOnSigterm() throws Exception {
    Path jar = Path.of(System.getProperty("feedserver.jar", "target/feed-server.jar"));
    assertTrue(Files.isRegularFile(jar), "the runnable jar is built: " + jar.toAbsolutePath());
    int port = freePort();
    Path log = dir.resolve("server.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    process = new ProcessBuilder(java, "-jar", jar.toAbsolutePath().toString(), "--db", "feeds.db",
        "--port", Integer.toString(port))
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();

    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    Await.until("health says SERVING", Duration.ofSeconds(60), () -> {
      assertTrue(process.isAlive(), () -> "the server exited early:\n" + read(log));
      try {
        return health.withDeadlineAfter(2, TimeUnit.SECONDS).check(HealthCheckRequest.getDefaultInstance())
            .getStatus() == ServingStatus.SERVING;
      } catch (StatusRuntimeException e) {
        return false; // not listening yet
      }
    });
    String startLine = read(log);
    assertTrue(startLine.contains("listening on 127.0.0.1:" + port), startLine);
    assertTrue(startLine.contains(dir.resolve("feeds.db").toRealPath().toString()), startLine);

    FeedId feed = TestBlocks.feedId();
    FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    assertEquals(List.of(1L, 2L, 3L), stub.append(Wire.append("s", Wire.blocks(feed, "a", 0, 3))).getPositionsList());
    QueryResponse page = stub.query(QueryRequest.newBuilder().setSpaceId("s").setCursor(1).build());
    assertEquals(List.of(2L, 3L), QueryTest.positions(page));
    List<dev.feedstore.proto.v1.Block> oversized = new java.util.ArrayList<>();
    com.google.protobuf.ByteString mib = com.google.protobuf.ByteString.copyFrom(new byte[1 << 20]);
    for (int i = 0; i < 17; i++) {
      oversized.add(Wire.block(feed, "big", i).toBuilder().setData(mib).build());
    }
    StatusRuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
        () -> stub.append(Wire.append("s", oversized)));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    FeedSyncGrpc.newStub(channel).watch(WatchRequest.newBuilder().setSpaceId("s").setCursor(3).build(), watch);
    assertTrue(watch.next().hasCaughtUp());

    long sigterm = System.nanoTime();
    process.destroy(); // SIGTERM

    assertEquals(Status.Code.UNAVAILABLE, watch.awaitEnd().getCode());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server exits after SIGTERM");
    long stopMillis = (System.nanoTime() - sigterm) / 1_000_000;
    System.out.println("SIGTERM to exit: " + stopMillis + " ms");
    assertTrue(stopMillis < 5_000, "nothing held the shutdown up for its 10 s grace: " + stopMillis + " ms");
    String output = read(log);
    System.out.println("server output:\n" + output);
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("stopped; database closed"), output);
    assertTrue(output.contains("refused a message from a client: RESOURCE_EXHAUSTED: gRPC message exceeds maximum size"
        + " 16777216"), output);
    assertTrue(!output.contains("\tat "), "no stack traces in the log:\n" + output);
    assertTrue(Files.notExists(dir.resolve("feeds.db-wal")) || Files.size(dir.resolve("feeds.db-wal")) == 0,
        "the WAL was folded back: the store was closed cleanly");
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      assertEquals(3, store.read(tx -> tx.blocks().after(SpaceId.of("s"), Scope.WHOLE_SPACE, Position.NONE, 10)).size());
      assertEquals(page.getServerToken(), store.read(tx -> tx.serverTokens().find(SpaceId.of("s"))).orElseThrow().value());
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
