package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_MS;
import static dev.feedstore.server.settings.ServerSettings.KEEPALIVE_TIMEOUT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.TcpRelay;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server pings silent connections ({@code keepalive-ms}) and closes those that do not answer
 * within {@code keepalive-timeout-ms}, so the Watch streams of a client that vanished without
 * closing its connection are released, while a client that answers keeps its streams.
 */
class KeepaliveTest {
  @TempDir Path dir;

  @Test
  void watchStreamsOfAClientThatStopsAnsweringAreReleasedAndAnsweringClientsKeepTheirs() {
    ServerSettings settings = ServerSettings.newBuilder()
        .set(HEARTBEAT_MS, 3_600_000) // no heartbeats: only keepalive pings cross the idle connections
        .set(KEEPALIVE_MS, KEEPALIVE_MS.min())
        .set(KEEPALIVE_TIMEOUT_MS, 300)
        .build();
    FeedId feed = TestBlocks.feedId();
    WatchRequest live = WatchRequest.newBuilder().setSpaceId("s").build();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).loopback().start();
        TcpRelay relay = new TcpRelay(t.server.port())) {
      ManagedChannel vanishing = Grpc.newChannelBuilderForAddress("127.0.0.1", relay.port(),
          InsecureChannelCredentials.create()).build();
      try {
        WatchCrowd gone = WatchCrowd.open(vanishing, live, 3);
        WatchCrowd staying = WatchCrowd.open(t.channel, live, 2);
        gone.awaitAnswered();
        staying.awaitAnswered();
        assertEquals(5, t.server.openWatches());

        relay.freeze();
        long frozen = System.nanoTime();
        Await.until("the streams of the silent connection are released", Duration.ofSeconds(20),
            () -> t.server.openWatches() == 2);
        System.out.printf("keepalive: the silent connection's streams were released %d ms after it went silent%n",
            (System.nanoTime() - frozen) / 1_000_000);

        // A keepalive round has passed: the answering connection still has its streams.
        assertEquals(0, staying.ended(), "streams of a connection that answers pings ended");
        assertEquals(List.of(1L), t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0))).getPositionsList());
        staying.awaitEvents(2); // caught up, then the block
        assertEquals(2, t.server.openWatches());
      } finally {
        vanishing.shutdownNow();
      }
    }
  }
}
