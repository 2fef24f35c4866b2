package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.PERMIT_KEEPALIVE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends keepalive pings as often as gRPC lets it (every 10 s without traffic, as
 * replicas do to notice a dead link) keeps its connection with the default {@code
 * permit-keepalive-ms}; against gRPC's own default permit (5 min) the same client is disconnected
 * ({@code GOAWAY ENHANCE_YOUR_CALM}) after a few pings. Both run side by side until the second is
 * cut. Takes about 25 s: run only with {@code -Dfeed.hostile.heavy=true}.
 */
class PermittedKeepaliveTest {
  @TempDir Path dir;

  @Test
  void aClientPingingEvery10sKeepsItsConnectionWithTheDefaultPermit() throws Exception {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    // No heartbeats: only the client's pings cross the idle connections.
    ServerSettings quiet = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build();
    ServerSettings grpcDefault = quiet.toBuilder().set(PERMIT_KEEPALIVE_MS, TimeUnit.MINUTES.toMillis(5)).build();
    try (TestServer permitted = TestServer.on(dir.resolve("a.db")).settings(quiet).loopback().start();
        TestServer strict = TestServer.on(dir.resolve("b.db")).settings(grpcDefault).loopback().start()) {
      ManagedChannel toPermitted = pinging(permitted.server.port());
      ManagedChannel toStrict = pinging(strict.server.port());
      try {
        WatchRequest live = WatchRequest.newBuilder().setSpaceId("s").build();
        EventRecorder<WatchEvent> kept = new EventRecorder<>();
        EventRecorder<WatchEvent> cut = new EventRecorder<>();
        FeedSyncGrpc.newStub(toPermitted).watch(live, kept);
        FeedSyncGrpc.newStub(toStrict).watch(live, cut);
        kept.next(); // caught up
        cut.next();

        long started = System.nanoTime();
        Await.until("the client pinging the strict server is cut off", Duration.ofSeconds(120), cut::ended);
        System.out.printf("keepalive permit: gRPC's default permit cut the pinging client after %d s%n",
            (System.nanoTime() - started) / 1_000_000_000);
        Status ended = cut.awaitEnd();
        System.out.println("keepalive permit: the strict server ended the stream with " + ended);
        // gRPC's client reports the GOAWAY ENHANCE_YOUR_CALM "too_many_pings" as RESOURCE_EXHAUSTED.
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, ended.getCode());
        assertTrue(String.valueOf(ended.getDescription()).contains("too_many_pings"), ended.toString());

        assertFalse(kept.ended(), "the client of the permitting server keeps its stream");
        FeedId feed = TestBlocks.feedId();
        permitted.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
        assertEquals(1, kept.next().getBlocks().getBlocksCount(), "and it is live");
      } finally {
        toPermitted.shutdownNow();
        toStrict.shutdownNow();
      }
    }
  }

  private static ManagedChannel pinging(int port) {
    return Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .keepAliveTime(10, TimeUnit.SECONDS)
        .keepAliveTimeout(5, TimeUnit.SECONDS)
        .build();
  }
}
