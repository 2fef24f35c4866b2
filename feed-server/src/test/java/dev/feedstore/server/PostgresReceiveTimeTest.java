package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.PostgresServer;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.server.testing.Wire;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Receive times on PostgreSQL, stamped by two servers whose clocks disagree: the stamp lives with the
 * space in the database, so neither server's clock can put a higher position before a lower one.
 */
class PostgresReceiveTimeTest {
  final FeedId feed = TestBlocks.feedId();

  @Test
  void twoServersWithSkewedClocksStampOneSpaceInPositionOrderAndResolveTimesAlike() {
    String url = PostgresServer.newDatabase();
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build();
    TestClock ahead = new TestClock(Instant.ofEpochMilli(200_000));
    TestClock behind = new TestClock(Instant.ofEpochMilli(100_000));
    try (PostgresServer a = PostgresServer.on(url, settings, ahead);
        PostgresServer b = PostgresServer.on(url, settings, behind)) {
      a.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 2)));
      b.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 2, 1)));
      behind.set(Instant.ofEpochMilli(300_000));
      b.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 3, 1)));

      List<Long> stamps = a.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocksList()
          .stream().map(Block::getReceivedAt).toList();
      assertEquals(List.of(200_000L, 200_000L, 200_000L, 300_000L), stamps,
          "the server behind stamps at the last stamp until its clock passes it");
      for (PostgresServer server : List.of(a, b)) {
        QueryResponse since = server.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setStartTime(250_000)
            .build());
        assertEquals(3, since.getStartCursor());
        assertEquals(List.of(4L), since.getBlocksList().stream().map(Block::getPosition).toList());
      }
    }
  }
}
