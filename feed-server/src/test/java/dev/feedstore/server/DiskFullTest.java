package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.HealthChecks;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.SmallDisk;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on a small file system of its own (a tmpfs) that appends fill: the append that does
 * not fit is RESOURCE_EXHAUSTED naming the full disk, health turns NOT_SERVING, and once space is
 * freed the same process serves again (health SERVING, new appends, an identical re-append, a new
 * space) with every acknowledged block intact.
 */
class DiskFullTest {
  private static final String SPACE = "full";

  @TempDir Path dir;
  private final FeedId feed = TestBlocks.feedId();
  private long nextSequence;

  @Test
  void aFullDiskIsResourceExhaustedAndNotServingUntilSpaceIsFreedThenEverythingAcknowledgedIsThere() {
    try (SmallDisk disk = SmallDisk.mount(dir, 16 << 20)) {
      // Three times what the store will fill: freed, it leaves room for a checkpoint of a WAL that
      // holds all of it (a full checkpoint asks for the growth of the file plus a margin).
      disk.reserve(12 << 20);
      ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WRITE_PROBE_MS, 100)
          .build();
      try (TestServer t = TestServer.on(disk.dir().resolve("feeds.db")).settings(settings).start()) {
        HealthChecks.await(t.channel, ServingStatus.SERVING);
        Map<String, dev.feedstore.proto.v1.Block> acknowledged = new LinkedHashMap<>();
        List<AppendRequest> acknowledgedRequests = new ArrayList<>();
        StatusRuntimeException full = null;
        while (full == null) {
          AppendRequest request = Wire.append(SPACE, nextBatch());
          try {
            record(acknowledged, request, t.blocking().append(request));
            acknowledgedRequests.add(request);
          } catch (StatusRuntimeException e) {
            full = e;
          }
          assertTrue(acknowledged.size() < 2000, "the disk fills up");
        }
        assertFull(full);
        HealthChecks.await(t.channel, ServingStatus.NOT_SERVING);
        assertEquals(ServingStatus.SERVING, HealthChecks.status(t.channel, HealthChecks.READS), "reads still work");
        for (int i = 0; i < 3; i++) {
          assertFull(assertThrows(StatusRuntimeException.class,
              () -> t.blocking().append(Wire.append(SPACE, nextBatch()))));
        }
        assertEquals(acknowledged, readAll(t), "reads work on a full disk");

        disk.release();
        HealthChecks.await(t.channel, ServingStatus.SERVING);
        AppendRequest after = Wire.append(SPACE, nextBatch());
        record(acknowledged, after, t.blocking().append(after));
        AppendRequest first = acknowledgedRequests.get(0);
        assertEquals(List.of(1L, 2L, 3L, 4L), t.blocking().append(first).getPositionsList(),
            "an identical re-append answers the stored positions");
        QueryResponse fresh = t.blocking().query(QueryRequest.newBuilder().setSpaceId("a-new-space").build());
        assertTrue(fresh.getServerToken().length() > 0);
        t.blocking().subscribe(SubscribeRequest.newBuilder().setSpaceId(SPACE).addFeedIds(feed.value()).build());
        assertEquals(acknowledged, readAll(t), "every acknowledged block is intact at its position");
      }
    }
  }

  @Test
  void aServerStartedOnAFullDiskServesReadsAndTakesWritesOnceSpaceIsFreedWithoutARestart() {
    try (SmallDisk disk = SmallDisk.mount(dir, 16 << 20)) {
      disk.reserve(12 << 20);
      Path file = disk.dir().resolve("feeds.db");
      ServerSettings settings =
          ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(WRITE_PROBE_MS, 100).build();
      Map<String, dev.feedstore.proto.v1.Block> acknowledged = new LinkedHashMap<>();
      try (TestServer t = TestServer.on(file).settings(settings).start()) {
        while (true) {
          AppendRequest request = Wire.append(SPACE, nextBatch());
          try {
            record(acknowledged, request, t.blocking().append(request));
          } catch (StatusRuntimeException e) {
            assertFull(e);
            break;
          }
          assertTrue(acknowledged.size() < 2000, "the disk fills up");
        }
      }
      disk.fill(); // what closing the store gave back (its WAL folded into the file) is taken again

      try (TestServer t = TestServer.on(file).settings(settings).start()) {
        assertEquals(ServingStatus.NOT_SERVING, HealthChecks.status(t.channel, ""), "writes fail from the start");
        assertEquals(ServingStatus.NOT_SERVING, HealthChecks.status(t.channel, "feed.v1.FeedSync"));
        assertEquals(ServingStatus.SERVING, HealthChecks.status(t.channel, HealthChecks.READS));
        assertEquals(acknowledged, readAll(t), "reads work on a full disk");
        assertFull(assertThrows(StatusRuntimeException.class,
            () -> t.blocking().append(Wire.append(SPACE, nextBatch()))));

        disk.release();
        HealthChecks.await(t.channel, ServingStatus.SERVING);
        AppendRequest after = Wire.append(SPACE, nextBatch());
        record(acknowledged, after, t.blocking().append(after));
        assertEquals(acknowledged, readAll(t));
      }
    }
  }

  private static void assertFull(StatusRuntimeException e) {
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.getStatus().toString());
    assertTrue(e.getStatus().getDescription().contains("the disk holding the server's database feeds.db is full"),
        e.getStatus().getDescription());
  }

  /** Four blocks of 16 KiB, the next sequences of the feed, each naming its predecessor. */
  private List<dev.feedstore.proto.v1.Block> nextBatch() {
    List<dev.feedstore.proto.v1.Block> batch = new ArrayList<>();
    for (int i = 0; i < 4; i++, nextSequence++) {
      Optional<Predecessor> previous = nextSequence == 0
          ? Optional.empty()
          : Optional.of(Predecessor.of(TestBlocks.key(feed, "a", nextSequence - 1)));
      batch.add(WireMapping.toWire(Block.unpositioned(TestBlocks.key(feed, "a", nextSequence), previous,
          1_000 + nextSequence, TestBlocks.bytes(16 * 1024))));
    }
    return batch;
  }

  private static void record(Map<String, dev.feedstore.proto.v1.Block> acknowledged, AppendRequest request,
      AppendResponse response) {
    for (int i = 0; i < request.getBlocksCount(); i++) {
      dev.feedstore.proto.v1.Block block = request.getBlocks(i);
      acknowledged.put(key(block), block.toBuilder().setPosition(response.getPositions(i)).build());
    }
  }

  private static Map<String, dev.feedstore.proto.v1.Block> readAll(TestServer t) {
    Map<String, dev.feedstore.proto.v1.Block> blocks = new LinkedHashMap<>();
    for (dev.feedstore.proto.v1.Block block : Calls.allBlocks(t.channel, SPACE)) {
      assertTrue(block.hasReceivedAt(), "a stored block carries its receive time: " + key(block));
      // What was acknowledged is what was sent with its position; the receive time is the server's.
      blocks.put(key(block), block.toBuilder().clearReceivedAt().build());
    }
    return blocks;
  }

  private static String key(dev.feedstore.proto.v1.Block block) {
    return block.getFeedId() + "/" + block.getActorId() + "/" + block.getSequence();
  }
}
