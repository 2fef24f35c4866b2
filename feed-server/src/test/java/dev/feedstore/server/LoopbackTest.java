package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCHES_PER_CONNECTION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server over a real socket on 127.0.0.1: what only a network transport shows. */
class LoopbackTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  @Test
  void appendAndQueryWorkOverASocket() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();

    t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
    QueryResponse response = t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setCursor(1).build());

    assertEquals(List.of(2L, 3L), QueryTest.positions(response));
  }

  @Test
  void theHealthServiceSaysServingAndNotServingAfterShutdownBegins() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(t.channel);

    assertEquals(HealthCheckResponse.ServingStatus.SERVING,
        health.check(HealthCheckRequest.getDefaultInstance()).getStatus());
    assertEquals(HealthCheckResponse.ServingStatus.SERVING,
        health.check(HealthCheckRequest.newBuilder().setService("feed.v1.FeedSync").build()).getStatus());
  }

  @Test
  void reflectionListsTheFeedSyncService() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    EventRecorder<ServerReflectionResponse> responses = new EventRecorder<>();
    StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(t.channel).serverReflectionInfo(responses);

    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    List<String> services = responses.next().getListServicesResponse().getServiceList().stream()
        .map(ServiceResponse::getName).toList();
    requests.onCompleted();

    assertTrue(services.contains("feed.v1.FeedSync"), services.toString());
    assertTrue(services.contains("grpc.health.v1.Health"), services.toString());
  }

  @Test
  void watchesPerConnectionCountsEachClientConnectionApart() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WATCHES_PER_CONNECTION, 2).build())
        .start();
    ManagedChannel second = Grpc.newChannelBuilderForAddress("127.0.0.1", t.server.port(),
        InsecureChannelCredentials.create()).build();
    try {
      watch(FeedSyncGrpc.newStub(t.channel)).next();
      watch(FeedSyncGrpc.newStub(t.channel)).next();
      Status third = watch(FeedSyncGrpc.newStub(t.channel)).awaitEnd();
      WatchEvent onSecond = watch(FeedSyncGrpc.newStub(second)).next();

      assertEquals(Status.Code.RESOURCE_EXHAUSTED, third.getCode());
      assertTrue(third.getDescription().startsWith("watches-per-connection limit is 2"), third.getDescription());
      assertTrue(onSecond.hasCaughtUp(), "another connection has its own allowance");
    } finally {
      second.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aMessageAboveMaxMessageBytesIsRefusedAndTheServerKeepsServing() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback()
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(BLOCK_BYTES, 1000)
            .set(MAX_MESSAGE_BYTES, 2000).build())
        .start();
    ByteString data = ByteString.copyFrom(new byte[900]);

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(Wire.append("s",
        Wire.block(feed, "a", 0).toBuilder().setData(data).build(),
        Wire.block(feed, "a", 1).toBuilder().setData(data).build(),
        Wire.block(feed, "a", 2).toBuilder().setData(data).build())));

    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("2000"), e.getStatus().getDescription());
    assertEquals(List.of(1L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getPositionsList());
  }

  @Test
  void aConflictOfManyKeysReachesAClientWithDefaultLimits() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    t.blocking().append(Wire.append("s", Wire.blocks(feed, "an-actor-with-a-rather-long-name", 0, 1000)));
    List<dev.feedstore.proto.v1.Block> changed = new java.util.ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      changed.add(Wire.block(feed, "an-actor-with-a-rather-long-name", i, "changed"));
    }

    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> t.blocking().append(Wire.append("s", changed)));

    assertEquals(Status.Code.ALREADY_EXISTS, e.getStatus().getCode(), e.getStatus().toString());
    int named = e.getTrailers().get(dev.feedstore.proto.WireErrors.APPEND_CONFLICT).getKeysCount();
    assertTrue(named > 10 && named < 1000, "named " + named);
    assertTrue(e.getStatus().getDescription().startsWith("1000 block key(s) are stored with different content: "),
        e.getStatus().getDescription());
    assertTrue(e.getStatus().getDescription().endsWith("The trailer names the first " + named
        + " of the 1000 keys (metadata is limited in size): re-key those and append again to learn the others"),
        e.getStatus().getDescription());
  }

  static EventRecorder<WatchEvent> watch(FeedSyncGrpc.FeedSyncStub stub) {
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    stub.watch(WatchRequest.newBuilder().setSpaceId("s").build(), events);
    return events;
  }
}
