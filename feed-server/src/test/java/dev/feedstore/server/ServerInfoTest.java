package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.BLOCKS_PER_APPEND;
import static dev.feedstore.server.settings.ServerSettings.BLOCK_BYTES;
import static dev.feedstore.server.settings.ServerSettings.MAX_MESSAGE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.QUERY_LIMIT;
import static dev.feedstore.server.settings.ServerSettings.RESPONSE_BYTES;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Limits;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireHeaders;
import dev.feedstore.proto.v1.GetServerInfoRequest;
import dev.feedstore.proto.v1.GetServerInfoResponse;
import dev.feedstore.proto.v1.LimitExceeded;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetServerInfo states the server's version and the limits a request must fit, and a request over
 * a limit carries the limit's setting and value in the {@code feed-limit-exceeded-bin} trailer, so
 * that clients size requests to fit.
 */
class ServerInfoTest {
  @TempDir Path dir;

  @Test
  void theServerStatesItsVersionAndLimits() {
    ServerSettings settings = ServerSettings.newBuilder().set(MAX_MESSAGE_BYTES, 4_194_304).set(BLOCKS_PER_APPEND, 7)
        .set(BLOCK_BYTES, 65_536).set(QUERY_LIMIT, 250).set(WATCH_BATCH_BLOCKS, 100).build();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).start()) {
      GetServerInfoResponse info = t.blocking().getServerInfo(GetServerInfoRequest.newBuilder().setRequestId("i").build());
      assertEquals("i", info.getRequestId());
      assertEquals(FeedServer.version(), info.getVersion());
      assertTrue(info.getVersion().matches("\\d+\\.\\d+\\.\\d+.*"), info.getVersion());
      assertEquals(4_194_304, info.getMaxMessageBytes());
      assertEquals(7, info.getBlocksPerAppend());
      assertEquals(65_536, info.getBlockBytes());
      assertEquals(250, info.getQueryLimit());
      assertEquals(settings.maxResponseBytes(), info.getMaxResponseBytes());
      assertTrue(info.getMaxResponseBytes() > settings.get(RESPONSE_BYTES) + settings.get(BLOCK_BYTES),
          "a page of response-bytes plus one block fits: " + info.getMaxResponseBytes());
    }
  }

  @Test
  void theDefaultLargestResponseStaysUnderGrpcsDefaultInboundLimit() {
    assertTrue(ServerSettings.DEFAULTS.maxResponseBytes() < 4 << 20, "" + ServerSettings.DEFAULTS.maxResponseBytes());
  }

  @Test
  void aRequestOverALimitNamesTheSettingAndItsValueInATrailer() {
    ServerSettings settings = ServerSettings.newBuilder().set(BLOCKS_PER_APPEND, 3).set(BLOCK_BYTES, 1000)
        .set(QUERY_LIMIT, 50).set(WATCH_BATCH_BLOCKS, 50).build();
    FeedId feed = TestBlocks.feedId();
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).settings(settings).start()) {
      StatusRuntimeException tooMany = assertThrows(StatusRuntimeException.class,
          () -> t.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 5))));
      assertLimit(tooMany, Limits.Key.BLOCKS_PER_APPEND, 3, 5);

      StatusRuntimeException tooLarge = assertThrows(StatusRuntimeException.class, () -> t.blocking().append(
          Wire.append("s", Wire.block(TestBlocks.block(feed, "a", 0, "x".repeat(1001))))));
      assertLimit(tooLarge, Limits.Key.BLOCK_BYTES, 1000, 1001);

      StatusRuntimeException tooLong = assertThrows(StatusRuntimeException.class, () -> t.blocking().query(
          QueryRequest.newBuilder().setSpaceId("s").setLimit(51).build()));
      assertLimit(tooLong, Limits.Key.QUERY_LIMIT, 50, 51);
      assertEquals(0, t.blocking().query(QueryRequest.newBuilder().setSpaceId("s").build()).getBlocksCount(),
          "nothing was written");
    }
  }

  @Test
  void withAccessTokensAnyKnownTokenMayAskAndAnUnknownOneIsUnauthenticated() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, AccessTokens.sha256("reader") + " read other-space\n");
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 0).accessTokens(AccessTokens.read(tokens))
          .build().start();
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
          InsecureChannelCredentials.create()).build();
      try {
        var stub = dev.feedstore.proto.v1.FeedSyncGrpc.newBlockingStub(channel);
        GetServerInfoRequest request = GetServerInfoRequest.newBuilder().setRequestId("i").build();
        assertEquals(Limits.DEFAULT_BLOCK_BYTES, stub.withInterceptors(
            MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer("reader"))).getServerInfo(request).getBlockBytes());
        StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class, () -> stub.withInterceptors(
            MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer("guess"))).getServerInfo(request));
        assertEquals(Status.Code.UNAUTHENTICATED, unknown.getStatus().getCode());
        assertEquals(Status.Code.UNAUTHENTICATED,
            assertThrows(StatusRuntimeException.class, () -> stub.getServerInfo(request)).getStatus().getCode());
      } finally {
        channel.shutdownNow();
        server.close();
      }
    }
  }

  private static void assertLimit(StatusRuntimeException e, String key, long value, long actual) {
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    LimitExceeded detail = e.getTrailers().get(WireErrors.LIMIT_EXCEEDED);
    assertEquals(LimitExceeded.newBuilder().setLimit(key).setValue(value).setActual(actual).build(), detail);
    assertTrue(e.getStatus().getDescription().contains(key + " limit is " + value), e.getStatus().getDescription());
  }
}
