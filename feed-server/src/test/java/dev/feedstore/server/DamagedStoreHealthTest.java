package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.HealthChecks;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.testing.PageDamage;
import dev.feedstore.testing.Await;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server over a file whose {@code blocks} b-tree is damaged where no start-up check looked (the
 * in-process server has none; the runnable one skips it with {@code --quick-check-ms 0}, or runs out
 * of time before it): the first read that meets the damage turns health NOT_SERVING for the whole
 * server, for FeedSync and for its reads, and it stays so while the write probe, which does not
 * touch {@code blocks}, succeeds: a damaged file does not heal while it is served.
 */
class DamagedStoreHealthTest {
  @TempDir Path dir;

  @Test
  void aReadThatFindsTheFileDamagedTurnsEveryHealthNameNotServingForGood() {
    Path file = dir.resolve("feeds.db");
    PageDamage.storeWithDamagedRoot(file, 2_000);
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WRITE_PROBE_MS, 50).build();
    try (TestServer t = TestServer.on(file).settings(settings).start()) {
      HealthChecks.await(t.channel, ServingStatus.SERVING);
      HealthChecks.awaitReads(t.channel, ServingStatus.SERVING);

      StatusRuntimeException read = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()));

      assertEquals(Status.Code.DATA_LOSS, read.getStatus().getCode(), read.getStatus().toString());
      HealthChecks.await(t.channel, ServingStatus.NOT_SERVING);
      HealthChecks.awaitReads(t.channel, ServingStatus.NOT_SERVING);
      long probes = t.store.probes();
      Await.until("three more write probes ran", Duration.ofSeconds(30), () -> t.store.probes() >= probes + 3);
      assertNotServing(t);

      StatusRuntimeException append = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("s", Wire.block(TestBlocks.feedId(), "a", 0))));
      assertEquals(Status.Code.DATA_LOSS, append.getStatus().getCode(), append.getStatus().toString());
      long more = t.store.probes();
      Await.until("three more write probes ran", Duration.ofSeconds(30), () -> t.store.probes() >= more + 3);
      assertNotServing(t);
    }
  }

  private static void assertNotServing(TestServer t) {
    for (String service : new String[] {"", "feed.v1.FeedSync", HealthChecks.READS}) {
      assertEquals(ServingStatus.NOT_SERVING, HealthChecks.status(t.channel, service), "health of '" + service + "'");
    }
  }
}
