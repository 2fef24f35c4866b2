package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_APPEND_BYTES_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_REQUESTS_PER_SECOND;
import static dev.feedstore.server.settings.ServerSettings.PRINCIPAL_STREAMS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Http;
import dev.feedstore.server.testing.SseReader;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-principal limits: requests per second, bytes appended per second and open streams, each
 * refused naming its setting (RESOURCE_EXHAUSTED / 429 with when to retry) while other principals
 * go on; one principal flooding is held to its rate and another is not refused (the effect on the
 * other's latency is measured by feed-bench's {@code fairness} part).
 */
class PrincipalLimitsTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private void start(ServerSettings.Builder settings, boolean loopback) throws Exception {
    Path tokens = Files.writeString(dir.resolve("tokens"), AccessTokens.sha256("alice") + " write *\n"
        + AccessTokens.sha256("bob") + " write *\n");
    TestServer.Builder builder = TestServer.on(dir.resolve("feeds.db")).settings(settings.set(HEARTBEAT_MS, 3_600_000)
        .build()).accessTokens(AccessTokens.read(tokens)).http();
    t = (loopback ? builder.loopback() : builder).start();
  }

  @Test
  void requestsOverTheRateAreRefusedNamingItWithWhenToRetryAndOthersGoOn() throws Exception {
    start(ServerSettings.newBuilder().set(PRINCIPAL_REQUESTS_PER_SECOND, 5), false);
    for (int i = 0; i < 5; i++) {
      t.blocking("alice").query(QueryRequest.newBuilder().setSpaceId("s").build());
    }

    StatusRuntimeException grpc = assertThrows(StatusRuntimeException.class,
        () -> t.blocking("alice").query(QueryRequest.newBuilder().setSpaceId("s").build()));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, grpc.getStatus().getCode());
    assertTrue(grpc.getStatus().getDescription().startsWith("principal-requests-per-second limit is 5: token "
        + AccessTokens.sha256("alice").substring(0, 12) + " sent more requests than that in the last second; retry in"),
        grpc.getStatus().getDescription());
    Metadata trailers = grpc.getTrailers();
    assertEquals("principal-requests-per-second", trailers.get(WireErrors.LIMIT_EXCEEDED).getLimit());
    assertTrue(Long.parseLong(trailers.get(Metadata.Key.of("retry-after-ms", Metadata.ASCII_STRING_MARSHALLER))) > 0);
    Http alice = t.http().withToken("alice");
    HttpResponse<String> http = alice.get("/v1/spaces/s/blocks");
    for (int i = 0; i < 20 && http.statusCode() == 200; i++) {
      http = alice.get("/v1/spaces/s/blocks"); // the bucket refilled while the gRPC refusal was checked
    }
    assertEquals(429, http.statusCode());
    assertEquals("RESOURCE_EXHAUSTED", Http.json(http).get("code").getAsString());
    assertTrue(Long.parseLong(http.headers().firstValue("Retry-After").orElse("0")) >= 1);

    assertEquals(200, t.http().withToken("bob").get("/v1/spaces/s/blocks").statusCode(), "another principal goes on");
  }

  @Test
  void appendsOverTheByteRateAreRefusedAndWriteNothing() throws Exception {
    start(ServerSettings.newBuilder().set(PRINCIPAL_APPEND_BYTES_PER_SECOND, 1000), false);
    ByteString data = ByteString.copyFrom(new byte[800]);
    t.blocking("alice").append(Wire.append("s", Wire.block(feed, "a", 0).toBuilder().setData(data).build()));

    StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> t.blocking("alice")
        .append(Wire.append("s", Wire.block(feed, "a", 1).toBuilder().setData(data).build())));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("principal-append-bytes-per-second limit is 1000"),
        refused.getStatus().getDescription());
    assertEquals(1, t.blocking("bob").query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocksCount());
    assertEquals(List.of(2L), t.blocking("bob").append(Wire.append("s", Wire.block(feed, "b", 0).toBuilder()
        .setData(data).build())).getPositionsList(), "another principal's bytes are its own");
  }

  @Test
  void streamsOverTheLimitAreRefusedAndAClosedOneMakesRoom() throws Exception {
    start(ServerSettings.newBuilder().set(PRINCIPAL_STREAMS, 2), false);
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    io.grpc.Context.CancellableContext context = io.grpc.Context.current().withCancellation();
    context.run(() -> FeedSyncGrpc.newStub(t.channel("alice")).watch(WatchRequest.newBuilder().setSpaceId("s")
        .build(), watch));
    assertTrue(watch.next().hasCaughtUp());
    try (SseReader sse = SseReader.open(t.http().withToken("alice"), "/v1/spaces/s/events")) {
      sse.next("caught-up");

      HttpResponse<String> third = t.http().withToken("alice").get("/v1/spaces/s/events");
      assertEquals(429, third.statusCode(), third.body());
      assertTrue(Http.json(third).get("message").getAsString().contains("principal-streams limit is 2"), third.body());
      EventRecorder<WatchEvent> refused = new EventRecorder<>();
      FeedSyncGrpc.newStub(t.channel("alice")).watch(WatchRequest.newBuilder().setSpaceId("s").build(), refused);
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.awaitEnd().getCode());
      try (SseReader bobs = SseReader.open(t.http().withToken("bob"), "/v1/spaces/s/events")) {
        assertEquals("server-token", bobs.next().name(), "another principal's streams are its own");
      }

      context.cancel(null);
      // An event stream whose client went away is noticed when the server next writes to it: a heartbeat.
      dev.feedstore.testing.Await.until("the closed streams are released", () -> {
        t.server.tick();
        return t.server.openWatches() == 1;
      });
      try (SseReader again = SseReader.open(t.http().withToken("alice"), "/v1/spaces/s/events")) {
        assertEquals(200, again.response().statusCode());
      }
    }
  }

  @Test
  void onePrincipalFloodingIsHeldToItsRateWhileAnotherIsNeverRefused() throws Exception {
    int bytesPerSecond = 64 << 10;
    start(ServerSettings.newBuilder().set(PRINCIPAL_REQUESTS_PER_SECOND, 500)
        .set(PRINCIPAL_APPEND_BYTES_PER_SECOND, bytesPerSecond), true);
    FeedSyncGrpc.FeedSyncBlockingStub bob = t.blocking("bob");
    for (int i = 0; i < 10; i++) {
      bob.append(Wire.append("s", Wire.blocks(feed, "b", i * 100L, 100)));
    }

    ByteString kib = ByteString.copyFrom(new byte[1024]);
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicLong refused = new AtomicLong();
    AtomicLong admitted = new AtomicLong();
    List<Thread> flood = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      int thread = i;
      flood.add(new Thread(() -> {
        FeedSyncGrpc.FeedSyncBlockingStub alice = t.blocking("alice");
        for (long n = 0; flooding.get(); n++) {
          try {
            alice.append(Wire.append("s", Wire.block(feed, "alice-" + thread, n).toBuilder().setData(kib).build()));
            admitted.incrementAndGet();
          } catch (StatusRuntimeException e) {
            refused.incrementAndGet();
          }
        }
      }));
    }
    long started = System.nanoTime();
    flood.forEach(Thread::start);
    int answered = 0;
    try {
      dev.feedstore.testing.Await.until("the flood is refused", () -> refused.get() > 100);
      // 10 appends and 200 queries stay within bob's bucket of 500 however the calls are timed, so
      // any refusal of his would be alice's flood spilling over onto him.
      for (int i = 0; i < 200; i++) {
        answered += bob.query(QueryRequest.newBuilder().setSpaceId("s").setCursor(i % 900).setLimit(100).build())
            .getBlocksCount();
      }
    } finally {
      flooding.set(false);
      for (Thread thread : flood) {
        thread.join();
      }
    }
    double seconds = (System.nanoTime() - started) / 1e9;

    assertEquals(200 * 100, answered, "every one of bob's queries was answered in full while alice flooded");
    assertTrue(admitted.get() * 1024 <= bytesPerSecond * (1 + seconds), "alice appended " + admitted.get()
        + " KiB in " + seconds + " s: her bucket holds one second's worth and refills at the rate");
    // How much the flood costs bob's latency is measured by feed-bench's fairness part, not here.
  }
}
