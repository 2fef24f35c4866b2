package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.RETAIN_AGE_MS;
import static dev.feedstore.server.settings.ServerSettings.RETAIN_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.RETAIN_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SetRetentionResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention: the server's retain settings and a space's own (SetRetention), by count, age and size,
 * applied by the server's periodic work (run here by hand) and at once when set.
 */
class RetentionTest {
  @TempDir Path dir;
  TestServer t;
  final FeedId feed = TestBlocks.feedId();
  final TestClock clock = new TestClock(Instant.ofEpochMilli(100_000));

  @AfterEach
  void stop() {
    if (t != null) {
      t.close();
    }
  }

  private void start(ServerSettings.Builder settings) {
    t = TestServer.on(dir.resolve("feeds.db")).settings(settings.set(HEARTBEAT_MS, 3_600_000).build()).clock(clock)
        .start();
  }

  /** Appends blocks to space {@code space} stamped 1000 ms apart from {@code firstStamp}, 100 bytes each. */
  private void append(String space, int count, long firstStamp) {
    long before = t.blocking().query(QueryRequest.newBuilder().setSpaceId(space).build()).getMaxPosition();
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Block block = Wire.block(feed, "a", before + i);
      blocks.add(block.toBuilder().setTimestamp(firstStamp + i * 1000L)
          .setData(com.google.protobuf.ByteString.copyFrom(new byte[100])).build());
    }
    t.blocking().append(Wire.append(space, blocks));
  }

  private QueryResponse query(String space) {
    return t.blocking().query(QueryRequest.newBuilder().setSpaceId(space).build());
  }

  @Test
  void retentionIsOffByDefault() {
    start(ServerSettings.newBuilder());
    append("s", 20, 0);
    assertEquals(0, t.server.applyRetention());
    assertEquals(0, query("s").getFloor());
    assertEquals(20, query("s").getBlocksCount());
  }

  @Test
  void theServersRetainBlocksKeepsTheNewestBlocksOfEverySpace() {
    start(ServerSettings.newBuilder().set(RETAIN_BLOCKS, 5));
    append("s", 12, 0);
    append("t", 3, 0);

    assertEquals(7, t.server.applyRetention());

    assertEquals(7, query("s").getFloor());
    assertEquals(List.of(8L, 9L, 10L, 11L, 12L), query("s").getBlocksList().stream().map(Block::getPosition).toList());
    assertEquals(0, query("t").getFloor(), "a space within the bound keeps everything");
    assertEquals(0, t.server.applyRetention(), "applying it again removes nothing more");
  }

  @Test
  void retainAgeKeepsEverythingFromTheFirstBlockReceivedWithinTheAge() {
    start(ServerSettings.newBuilder().set(RETAIN_AGE_MS, 10_000));
    clock.set(Instant.ofEpochMilli(85_000));
    for (int i = 0; i < 10; i++) {
      append("s", 1, 99_000); // received 85 000 .. 94 000, whatever their authors' clocks said
      clock.advance(Duration.ofSeconds(1));
    }
    clock.set(Instant.ofEpochMilli(100_000));
    t.server.applyRetention();
    assertEquals(5, query("s").getFloor(), "received at 85 000 .. 89 000 is more than 10 s ago; 90 000 is not");

    clock.advance(Duration.ofSeconds(60));
    t.server.applyRetention();
    assertEquals(10, query("s").getFloor(), "all of them, in time");
    assertEquals(10, query("s").getMaxPosition());
  }

  @Test
  void retainAgeGoesByTheReceiveTimeNotTheAuthorsClock() {
    start(ServerSettings.newBuilder().set(RETAIN_AGE_MS, 10_000));
    append("s", 3, 0); // authors' clocks at 1970, received now
    append("s", 2, 10_000_000); // authors' clocks far ahead, received now
    t.server.applyRetention();
    assertEquals(0, query("s").getFloor(), "every block was received within the age");
    assertTrue(query("s").getBlocksList().stream().allMatch(b -> b.getReceivedAt() == 100_000),
        "the server stamps what its clock says");

    clock.advance(Duration.ofSeconds(11));
    t.server.applyRetention();
    assertEquals(5, query("s").getFloor(), "eleven seconds after receipt, all are beyond the age");
  }

  @Test
  void retainBytesKeepsTheNewestBlocksWhoseDataFits() {
    start(ServerSettings.newBuilder().set(RETAIN_BYTES, 350));
    append("s", 10, 0);
    t.server.applyRetention();
    assertEquals(7, query("s").getFloor(), "three blocks of 100 bytes fit in 350");
  }

  @Test
  void aSpacesOwnRetentionReplacesTheServersAndIsAppliedAtOnce() {
    start(ServerSettings.newBuilder().set(RETAIN_BLOCKS, 8));
    append("s", 10, 0);
    append("t", 10, 0);

    SetRetentionResponse set = t.blocking().setRetention(SetRetentionRequest.newBuilder().setRequestId("r")
        .setSpaceId("s").setBlocks(3).build());

    assertEquals("r", set.getRequestId());
    assertEquals(3, set.getBlocks());
    assertFalse(set.getServerDefault());
    assertEquals(7, set.getFloor(), "applied at once");
    assertEquals(0, query("t").getFloor(), "other spaces wait for the periodic run");
    t.server.applyRetention();
    assertEquals(7, query("s").getFloor());
    assertEquals(2, query("t").getFloor(), "the server's setting for the others");

    SetRetentionResponse keepAll = t.blocking().setRetention(SetRetentionRequest.newBuilder().setSpaceId("t").build());
    assertEquals(0, keepAll.getBlocks());
    append("t", 5, 0);
    t.server.applyRetention();
    assertEquals(2, query("t").getFloor(), "a space of its own that keeps everything");

    SetRetentionResponse reset = t.blocking().setRetention(SetRetentionRequest.newBuilder().setSpaceId("t")
        .setServerDefault(true).build());
    assertTrue(reset.getServerDefault());
    assertEquals(8, reset.getBlocks());
    assertEquals(7, reset.getFloor(), "15 blocks, 8 kept");
  }

  @Test
  void badRetentionRequestsAreRefusedNamingTheFieldAndChangeNothing() {
    start(ServerSettings.newBuilder());
    append("s", 5, 0);
    StatusRuntimeException negative = assertThrows(StatusRuntimeException.class, () -> t.blocking().setRetention(
        SetRetentionRequest.newBuilder().setSpaceId("s").setBlocks(-1).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, negative.getStatus().getCode());
    assertTrue(negative.getStatus().getDescription().contains("blocks"), negative.getStatus().getDescription());
    StatusRuntimeException both = assertThrows(StatusRuntimeException.class, () -> t.blocking().setRetention(
        SetRetentionRequest.newBuilder().setSpaceId("s").setBlocks(1).setServerDefault(true).build()));
    assertTrue(both.getStatus().getDescription().contains("server_default"), both.getStatus().getDescription());
    t.server.applyRetention();
    assertEquals(0, query("s").getFloor());

    InvalidValueException setting = assertThrows(InvalidValueException.class,
        () -> ServerSettings.newBuilder().set(RETAIN_BYTES, -5).build());
    assertTrue(setting.getMessage().contains("retain-bytes"), setting.getMessage());
  }
}
