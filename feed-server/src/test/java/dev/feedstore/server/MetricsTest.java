package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.METRICS_READ_TIMEOUT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Scope;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.MetricsSamples;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /metrics}: calls by method and code, durations, appended positions, Watch gauges. */
class MetricsTest {
  @TempDir Path dir;
  final HttpClient http = HttpClient.newHttpClient();

  @Test
  void metricsCountWhatClientsDidInThePrometheusTextFormat() throws Exception {
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).metricsAddress("127.0.0.1", 0)
          .build().start();
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
        FeedId feed = TestBlocks.feedId();
        stub.append(Wire.append("s", Wire.blocks(feed, "a", 0, 3)));
        stub.append(Wire.append("s", Wire.blocks(feed, "a", 3, 2)));
        stub.append(Wire.append("s", Wire.blocks(feed, "a", 3, 2))); // the same again: positions answered again
        assertThrows(StatusRuntimeException.class,
            () -> stub.query(QueryRequest.newBuilder().setSpaceId("s").setLimit(-1).build()));
        WatchCrowd watches = WatchCrowd.open(channel, WatchRequest.newBuilder().setSpaceId("s")
            .addFeedIds(feed.value()).build(), 2);
        watches.awaitAnswered();

        HttpResponse<String> response = get(server, "/metrics");
        assertEquals(200, response.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
        Map<String, Double> samples = MetricsSamples.parse(response.body());
        assertEquals(3.0, samples.get("feedstore_calls_total{code=\"OK\",method=\"Append\",transport=\"grpc\"}"));
        assertEquals(1.0, samples.get("feedstore_calls_total{code=\"INVALID_ARGUMENT\",method=\"Query\",transport=\"grpc\"}"));
        assertEquals(7.0, samples.get("feedstore_appended_positions_total"));
        assertEquals(3.0, samples.get("feedstore_call_duration_seconds_count{method=\"Append\",transport=\"grpc\"}"));
        assertEquals(3.0, samples.get("feedstore_call_duration_seconds_bucket{method=\"Append\",transport=\"grpc\",le=\"+Inf\"}"));
        assertTrue(samples.get("feedstore_call_duration_seconds_sum{method=\"Append\",transport=\"grpc\"}") > 0);
        assertEquals(2.0, samples.get("feedstore_watch_streams"));
        assertEquals(2.0 * Scope.feeds(Set.of(feed)).heapBytes(), samples.get("feedstore_watch_scope_bytes"));
        assertEquals(1.0, samples.get("feedstore_spaces_loaded"));
        assertEquals(3.0, samples.get("feedstore_append_groups_total"), "three appends one after another: three groups of one");
        assertEquals(3.0, samples.get("feedstore_append_grouped_total"));
        assertTrue(samples.get("feedstore_watch_events_total{transport=\"grpc\"}") >= 2, response.body());
        assertTrue(samples.get("feedstore_jvm_heap_used_bytes") > 0);
        assertTrue(response.body().contains("# TYPE feedstore_calls_total counter\n"), response.body());

        watches.cancelAll();
        Await.until("the cancelled Watch streams are counted as ended", Duration.ofSeconds(20),
            () -> MetricsSamples.parse(get(server, "/metrics").body()).getOrDefault(
                "feedstore_calls_total{code=\"CANCELLED\",method=\"Watch\",transport=\"grpc\"}", 0.0) == 2.0);
        assertEquals(0.0, MetricsSamples.parse(get(server, "/metrics").body()).get("feedstore_watch_streams"));
        assertEquals(0.0, MetricsSamples.parse(get(server, "/metrics").body()).get("feedstore_watch_scope_bytes"));
        assertEquals(404, get(server, "/other").statusCode());
      } finally {
        channel.shutdownNow();
        server.close();
      }
      assertThrows(java.io.UncheckedIOException.class, () -> get(server, "/metrics"), "the endpoint closes with the server");
    }
  }

  @Test
  void clientsThatSendHalfARequestHoldUpNoScrapeAndAreCutOffAfterTheReadTimeout() throws Exception {
    ServerSettings settings = ServerSettings.newBuilder().set(METRICS_READ_TIMEOUT_MS, 1_000).build();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedServer server = FeedServer.newBuilder(store).settings(settings).address("127.0.0.1", 0)
          .metricsAddress("127.0.0.1", 0).build().start();
      List<Socket> stalled = new ArrayList<>();
      try {
        long opened = System.nanoTime();
        for (int i = 0; i < 10; i++) {
          Socket socket = new Socket("127.0.0.1", server.metricsPort());
          socket.getOutputStream().write("GET /metr".getBytes(StandardCharsets.US_ASCII));
          socket.getOutputStream().flush();
          stalled.add(socket);
        }

        HttpResponse<String> scrape = get(server, "/metrics");
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.body().contains("feedstore_calls_in_flight"), scrape.body());

        for (Socket socket : stalled) {
          socket.setSoTimeout(20_000);
          assertEquals(-1, socket.getInputStream().read(), "the server closed the stalled connection without an answer");
        }
        long heldMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened);
        assertTrue(heldMillis >= 1_000, "closed after the read timeout, not before: " + heldMillis + " ms");
      } finally {
        for (Socket socket : stalled) {
          socket.close();
        }
        server.close();
      }
    }
  }

  private HttpResponse<String> get(FeedServer server, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort() + path))
              .timeout(Duration.ofSeconds(20)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
