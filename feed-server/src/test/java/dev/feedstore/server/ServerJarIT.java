package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
  ServerProcess server;
  ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theJarServesAndShutsDownCleanlyOnSigterm() throws Exception {
    int port = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port);
    Process process = server.process();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();

    server.awaitServing(channel);
    server.awaitOutput("listening on 127.0.0.1:" + port);
    server.awaitOutput(dir.resolve("feeds.db").toRealPath().toString());

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
    String output = server.output();
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

  @Test
  void theMetricsEndpointStaysOnLoopbackWhenTheServerListensOnEveryInterface() throws Exception {
    int port = ServerProcess.freePort();
    int metricsPort = ServerProcess.freePort();
    server = ServerProcess.start(dir, "feeds.db", port, "--host", "0.0.0.0", "--metrics-port",
        Integer.toString(metricsPort));
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();
    server.awaitServing(channel);

    server.awaitOutput("listening on 0.0.0.0:" + port);
    server.awaitOutput("metrics on http://127.0.0.1:" + metricsPort + "/metrics");
    try (Socket scrape = new Socket(InetAddress.getLoopbackAddress(), metricsPort)) {
      scrape.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      String answer = new String(scrape.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 200 OK") && answer.contains("feedstore_calls_in_flight"), answer);
    }
    List<InetAddress> others = nonLoopbackAddresses();
    for (InetAddress other : others) {
      try (Socket grpc = new Socket(other, port)) {
        assertTrue(grpc.isConnected(), "gRPC answers on " + other);
      }
      assertThrows(ConnectException.class, () -> new Socket(other, metricsPort).close(),
          "the metrics port is closed on " + other);
    }
    System.out.println("metrics checked closed on " + others);
  }

  private static List<InetAddress> nonLoopbackAddresses() throws Exception {
    List<InetAddress> addresses = new java.util.ArrayList<>();
    for (NetworkInterface nic : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (nic.isUp() && !nic.isLoopback()) {
        nic.inetAddresses().filter(a -> a instanceof Inet4Address).forEach(addresses::add);
      }
    }
    return addresses;
  }
}
