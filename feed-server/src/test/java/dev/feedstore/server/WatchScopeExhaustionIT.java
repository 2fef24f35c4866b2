package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.WATCH_SCOPE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.MetricsSamples;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Five clients each open 1,000 Watch streams of 1,000 feed ids against the server jar with a 256
 * MiB heap and the default settings: the server admits what {@code watch-scope-bytes} allows and
 * refuses the rest naming it, and stays healthy throughout (health SERVING, an Append and a Query
 * on another connection answer) and after the clients leave. Before scopes were counted and held
 * compactly, this ran the server out of heap. Minutes of work, so it runs only with {@code
 * -Dfeed.hostile.heavy=true}; {@code WatchScopeMemoryTest} checks the same rules with small
 * settings in every build.
 */
class WatchScopeExhaustionIT {
  private static final int CLIENTS = 5;
  private static final int STREAMS = 1_000;
  private static final int FEEDS = 1_000;

  @TempDir Path dir;

  @Test
  void fiveClientsOfAThousandStreamsOfAThousandFeedsAreRefusedNamingTheLimitWhileTheServerServes() {
    assumeTrue(Boolean.getBoolean("feed.hostile.heavy"), "heavy: -Dfeed.hostile.heavy=true");
    int port = ServerProcess.freePort();
    int metricsPort = ServerProcess.freePort();
    List<ManagedChannel> channels = new ArrayList<>();
    ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor();
    try (ServerProcess server = ServerProcess.start(dir, List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
        "feeds.db", port, "--metrics-port", Integer.toString(metricsPort))) {
      ManagedChannel control = channel(port, channels);
      server.awaitServing(control);
      FeedId feed = TestBlocks.feedId();
      AtomicLong sequence = new AtomicLong();
      Calls.blocking(control).append(Wire.append("s", Wire.block(feed, "control", sequence.getAndIncrement())));
      Probe probe = new Probe(control, feed, sequence);
      prober.scheduleWithFixedDelay(probe::run, 0, 500, TimeUnit.MILLISECONDS);

      WatchRequest.Builder request = WatchRequest.newBuilder().setSpaceId("s");
      for (int i = 0; i < FEEDS; i++) {
        request.addFeedIds(TestBlocks.feedId().value());
      }
      List<WatchCrowd> crowds = new ArrayList<>();
      for (int client = 0; client < CLIENTS; client++) {
        WatchCrowd crowd = WatchCrowd.open(channel(port, channels), request.build(), STREAMS);
        crowd.awaitAnswered(Duration.ofMinutes(5));
        crowds.add(crowd);
        int probes = probe.answered.get();
        Await.until("the control connection is served after client " + client, Duration.ofSeconds(30),
            () -> probe.answered.get() > probes + 1);
      }

      long refused = crowds.stream().mapToLong(c -> c.endedWith(Status.Code.RESOURCE_EXHAUSTED)).sum();
      long open = crowds.stream().mapToLong(c -> c.size() - c.ended()).sum();
      Map<String, Double> samples = MetricsSamples.scrape(metricsPort);
      System.out.printf("watch scopes under -Xmx256m: %d clients x %d streams x %d feed ids: %d open, %d refused;"
              + " scopes hold %.1f MiB, heap in use %.1f MiB; probes answered %d, slowest %d ms%n", CLIENTS, STREAMS,
          FEEDS, open, refused, samples.get("feedstore_watch_scope_bytes") / 1048576.0,
          samples.get("feedstore_jvm_heap_used_bytes") / 1048576.0, probe.answered.get(), probe.slowestMillis.get());
      assertEquals(CLIENTS * STREAMS, open + refused, "every stream is open or refused");
      assertTrue(refused > 0, "some streams are refused");
      assertTrue(open > 3 * STREAMS, open + " streams open: the budget is not needlessly small");
      for (WatchCrowd crowd : crowds) {
        for (Status status : crowd.endStatuses()) {
          assertEquals(Status.Code.RESOURCE_EXHAUSTED, status.getCode(), status.toString());
          assertTrue(status.getDescription().startsWith("watch-scope-bytes limit is 67108864, "), status.toString());
        }
      }
      assertTrue(samples.get("feedstore_watch_scope_bytes") <= WATCH_SCOPE_BYTES.defaultValue());

      for (int i = 1; i < channels.size(); i++) {
        channels.get(i).shutdownNow();
      }
      Await.until("the streams of the clients that left are released", Duration.ofMinutes(2),
          () -> MetricsSamples.scrape(metricsPort).get("feedstore_watch_streams") == 0);
      int probes = probe.answered.get();
      Await.until("the control connection is served after the clients left", Duration.ofSeconds(30),
          () -> probe.answered.get() > probes + 1);
      assertEquals(0.0, MetricsSamples.scrape(metricsPort).get("feedstore_watch_scope_bytes"));
      prober.shutdownNow();
      assertEquals(List.of(), List.copyOf(probe.failures), "every probe of the control connection answered");
      assertTrue(server.process().isAlive(), server.output());
    } finally {
      prober.shutdownNow();
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }

  private static ManagedChannel channel(int port, List<ManagedChannel> channels) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
        .maxInboundMessageSize(64 << 20).build();
    channels.add(channel);
    return channel;
  }

  /** Health, an Append and a Query on the control connection, each within 10 s; failures kept. */
  private static final class Probe {
    final ManagedChannel channel;
    final FeedId feed;
    final AtomicLong sequence;
    final AtomicInteger answered = new AtomicInteger();
    final AtomicLong slowestMillis = new AtomicLong();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    Probe(ManagedChannel channel, FeedId feed, AtomicLong sequence) {
      this.channel = channel;
      this.feed = feed;
      this.sequence = sequence;
    }

    void run() {
      long start = System.nanoTime();
      try {
        ServingStatus health = HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance()).getStatus();
        if (health != ServingStatus.SERVING) {
          failures.add("health " + health);
        }
        long position = Calls.blocking(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .append(Wire.append("s", Wire.block(feed, "control", sequence.getAndIncrement()))).getPositions(0);
        long max = Calls.blocking(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
            .query(QueryRequest.newBuilder().setSpaceId("s").setCursor(position - 1).build()).getMaxPosition();
        if (max < position) {
          failures.add("a Query after the Append at " + position + " saw " + max);
        }
        answered.incrementAndGet();
      } catch (RuntimeException e) {
        failures.add(e.toString());
      }
      slowestMillis.accumulateAndGet((System.nanoTime() - start) / 1_000_000, Math::max);
    }
  }
}
