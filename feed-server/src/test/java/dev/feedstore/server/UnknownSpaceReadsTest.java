package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static dev.feedstore.server.settings.ServerSettings.SPACES_PER_SERVER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.Census;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a space the server does not hold (Query, ListFeeds, Watch, and Subscribe, which a read
 * grant allows) creates nothing: no space row, no server token, nothing counted against {@code
 * spaces-per-server}; Subscribe stores its subscription only. The token such a read reports is the
 * one the space gets when its first block is appended.
 */
class UnknownSpaceReadsTest {
  private static final int NAMES = 1_000;

  @TempDir Path dir;

  @Test
  void aReadOnlyTokenReadingAThousandNewSpacesCreatesNoneAndUsesNoPlaceOfSpacesPerServer() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("reader") + " read *\n" + AccessTokens.sha256("writer") + " write *\n");
    ServerSettings settings = ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).set(SPACES_PER_SERVER, 3)
        .build();
    FeedId feed = TestBlocks.feedId();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings)
        .accessTokens(AccessTokens.read(tokens)).start()) {
      t.blocking("writer").append(Wire.append("kept", Wire.block(feed, "w", 0)));
      Census before = Census.of(t.file);

      List<String> seen = new ArrayList<>();
      for (int i = 0; i < NAMES; i++) {
        String space = "new-" + i;
        QueryResponse query = t.blocking("reader").query(QueryRequest.newBuilder().setSpaceId(space).build());
        assertEquals(0, query.getMaxPosition());
        assertEquals(0, t.blocking("reader").listFeeds(ListFeedsRequest.newBuilder().setSpaceId(space).build())
            .getFeedsCount());
        assertEquals(query.getServerToken(), t.blocking("reader").subscribe(SubscribeRequest.newBuilder()
            .setSpaceId(space).addFeedIds(feed.value()).build()).getServerToken());
        WatchEvent first = Calls.firstWatchEvent(t.channel("reader"), WatchRequest.newBuilder().setSpaceId(space).build());
        assertEquals(query.getServerToken(), first.getServerToken());
        seen.add(query.getServerToken());
      }

      Census after = Census.of(t.file);
      assertEquals(before.tables().get("spaces"), after.tables().get("spaces"), after.changesSince(before));
      assertEquals(before.tables().get("feeds"), after.tables().get("feeds"));
      assertEquals(before.tables().get("blocks"), after.tables().get("blocks"));
      assertEquals(NAMES, after.rows("subscriptions"), "every Subscribe stored its subscription");

      // Two places of spaces-per-server (3) are left: the reads took none.
      for (int i = 0; i < 2; i++) {
        String appended = t.blocking("writer").append(Wire.append("new-" + i, Wire.block(feed, "w", 0)))
            .getServerToken();
        assertEquals(seen.get(i), appended, "the token read before the space existed is the one it got");
      }
      StatusRuntimeException oneMore = assertThrows(StatusRuntimeException.class,
          () -> t.blocking("writer").append(Wire.append("new-2", Wire.block(feed, "w", 0))));
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, oneMore.getStatus().getCode());
      assertEquals(3, Census.of(t.file).rows("spaces"), "kept, new-0 and new-1 are stored; new-2 is not");
    }
  }

  @Test
  void aWatchOfASpaceTheServerDoesNotHoldIsToldOfItsFirstBlocks() {
    FeedId feed = TestBlocks.feedId();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).start()) {
      EventRecorder<WatchEvent> events = new EventRecorder<>();
      t.async().watch(WatchRequest.newBuilder().setSpaceId("born-later").build(), events);
      WatchEvent caughtUp = events.next();
      assertTrue(caughtUp.hasCaughtUp());
      assertEquals(0, Census.of(t.file).rows("spaces"));

      String token = t.blocking().append(Wire.append("born-later", Wire.blocks(feed, "w", 0, 2))).getServerToken();

      WatchEvent live = events.next();
      assertEquals(List.of(1L, 2L), live.getBlocks().getBlocksList().stream()
          .map(dev.feedstore.proto.v1.Block::getPosition).toList());
      assertEquals(token, live.getServerToken());
      assertEquals(caughtUp.getServerToken(), token);
    }
  }
}
