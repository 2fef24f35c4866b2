package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.SPACES_PER_SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spaces-per-server}: an append to one space more than the server may serve is refused
 * naming the setting and changes nothing; the spaces served before keep being served, across a
 * restart too (the count is the store's, not the process's). Reads of a space the server does not
 * hold take no place ({@link UnknownSpaceReadsTest}).
 */
class SpacesLimitTest {
  @TempDir Path dir;

  @Test
  void aRequestNamingOneSpaceTooManyIsRefusedAndChangesNothing() {
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(SPACES_PER_SERVER, 2)
        .build();
    FeedId feed = TestBlocks.feedId();
    String tokenOfA;
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).start()) {
      tokenOfA = t.blocking().append(Wire.append("a", Wire.block(feed, "x", 0))).getServerToken();
      t.blocking().append(Wire.append("b", Wire.block(feed, "x", 0)));

      StatusRuntimeException append = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("c", Wire.block(feed, "x", 0))));

      assertEquals(Status.Code.RESOURCE_EXHAUSTED, append.getStatus().getCode());
      assertEquals("spaces-per-server limit is 2, the server, with space 'c' added, has 3"
          + " (raise the spaces-per-server setting or send less)", append.getStatus().getDescription());
      assertEquals(0, t.blocking().query(QueryRequest.newBuilder().setSpaceId("c").build()).getMaxPosition(),
          "a space the server does not hold reads as empty");
      assertEquals(2L, t.sqlite.<Long>read(tx -> tx.serverTokens().count()));
      assertEquals(List.of(), t.sqlite.read(tx -> tx.feeds().list(SpaceId.of("c"), Optional.empty())));
    }

    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).start()) {
      assertEquals(tokenOfA, t.blocking().query(QueryRequest.newBuilder().setSpaceId("a").build()).getServerToken());
      assertEquals(List.of(2L), t.blocking().append(Wire.append("a", Wire.block(feed, "x", 1))).getPositionsList());
      assertEquals(1, t.blocking().listFeeds(ListFeedsRequest.newBuilder().setSpaceId("b").build()).getFeedsCount());
      StatusRuntimeException afterRestart = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("c", Wire.block(feed, "x", 0))));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, afterRestart.getStatus().getCode());
    }
  }
}
