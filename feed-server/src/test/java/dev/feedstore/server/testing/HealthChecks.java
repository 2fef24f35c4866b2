package dev.feedstore.server.testing;

import dev.feedstore.testing.Await;
import io.grpc.Channel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** What the standard health service says, for the whole server, for FeedSync and for its reads. */
public final class HealthChecks {
  /** The name under which health says whether reads work. */
  public static final String READS = "feed.v1.FeedSync.Reads";

  private HealthChecks() {}

  /** The status of {@code service} ("" for the whole server), asked with a 10 s deadline. */
  public static ServingStatus status(Channel channel, String service) {
    return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }

  /** Waits (30 s at most) until the whole server and FeedSync both say {@code expected}. */
  public static void await(Channel channel, ServingStatus expected) {
    Await.until("health says " + expected, Duration.ofSeconds(30),
        () -> status(channel, "") == expected && status(channel, "feed.v1.FeedSync") == expected);
  }

  /** Waits (30 s at most) until the health of reads ({@link #READS}) says {@code expected}. */
  public static void awaitReads(Channel channel, ServingStatus expected) {
    Await.until("health of reads says " + expected, Duration.ofSeconds(30),
        () -> status(channel, READS) == expected);
  }
}
