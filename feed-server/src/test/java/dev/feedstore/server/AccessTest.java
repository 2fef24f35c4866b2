package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.WireHeaders;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.sqlite.SqliteFeedStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Access tokens: no token or an unknown one is UNAUTHENTICATED; a token used beyond its grant is PERMISSION_DENIED. */
class AccessTest {
  @TempDir Path dir;
  SqliteFeedStore store;
  FeedServer server;
  ManagedChannel channel;
  final FeedId feed = TestBlocks.feedId();

  @BeforeEach
  void start() throws Exception {
    Path tokens = dir.resolve("tokens");
    Files.writeString(tokens, "# writer of a, reader of everything\n"
        + AccessTokens.sha256("writer-secret") + " write a\n"
        + "\n"
        + AccessTokens.sha256("reader-secret") + "   read *\n"
        + AccessTokens.sha256("admin-secret") + " admin a\n");
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    server = FeedServer.newBuilder(store).address("127.0.0.1", 0).accessTokens(AccessTokens.read(tokens)).build().start();
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(), InsecureChannelCredentials.create()).build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
    store.close();
  }

  @Test
  void eachTokenMayDoWhatItsGrantSaysAndNothingElse() {
    assertEquals(List.of(1L), stub("writer-secret").append(Wire.append("a", Wire.block(feed, "x", 0))).getPositionsList());
    assertEquals(1, stub("writer-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getBlocksCount());
    assertEquals(1, stub("reader-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getBlocksCount());
    assertEquals(0, stub("reader-secret").listFeeds(ListFeedsRequest.newBuilder().setSpaceId("b").build()).getFeedsCount());

    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("writer-secret").append(Wire.append("b", Wire.block(feed, "x", 0))));
    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("writer-secret").query(QueryRequest.newBuilder().setSpaceId("b").build()));
    assertDenied(Status.Code.PERMISSION_DENIED, "may read space 'a' but not Append to it",
        () -> stub("reader-secret").append(Wire.append("a", Wire.block(feed, "x", 1))));
    assertDenied(Status.Code.UNAUTHENTICATED, "not one this server knows",
        () -> stub("guess").query(QueryRequest.newBuilder().setSpaceId("a").build()));
    assertDenied(Status.Code.UNAUTHENTICATED, "needs an access token",
        () -> FeedSyncGrpc.newBlockingStub(channel).query(QueryRequest.newBuilder().setSpaceId("a").build()));

    // Nothing the refused calls asked for was done.
    assertEquals(1, stub("reader-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getBlocksCount());
    assertEquals(0, stub("reader-secret").query(QueryRequest.newBuilder().setSpaceId("b").build()).getBlocksCount());
  }

  @Test
  void compactNeedsAnAdminGrantForTheSpace() {
    stub("admin-secret").append(Wire.append("a", Wire.blocks(feed, "x", 0, 3)));
    CompactRequest compact = CompactRequest.newBuilder().setSpaceId("a").setUpTo(2).build();

    assertDenied(Status.Code.PERMISSION_DENIED, "needs an admin grant for it", () -> stub("writer-secret").compact(compact));
    assertDenied(Status.Code.PERMISSION_DENIED, "needs an admin grant for it", () -> stub("reader-secret").compact(compact));
    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("admin-secret").compact(compact.toBuilder().setSpaceId("b").build()));
    assertEquals(0, stub("reader-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getFloor(),
        "refused compactions removed nothing");

    assertEquals(2, stub("admin-secret").compact(compact).getFloor());
    assertEquals(1, stub("admin-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getBlocksCount());
  }

  @Test
  void setRetentionNeedsAnAdminGrantForTheSpace() {
    stub("admin-secret").append(Wire.append("a", Wire.blocks(feed, "x", 0, 3)));
    SetRetentionRequest retain = SetRetentionRequest.newBuilder().setSpaceId("a").setBlocks(1).build();

    assertDenied(Status.Code.PERMISSION_DENIED, "needs an admin grant for it", () -> stub("writer-secret").setRetention(retain));
    assertDenied(Status.Code.PERMISSION_DENIED, "needs an admin grant for it", () -> stub("reader-secret").setRetention(retain));
    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("admin-secret").setRetention(retain.toBuilder().setSpaceId("b").build()));
    assertEquals(3, stub("reader-secret").query(QueryRequest.newBuilder().setSpaceId("a").build()).getBlocksCount(),
        "refused retentions removed nothing");

    assertEquals(2, stub("admin-secret").setRetention(retain).getFloor());
  }

  @Test
  void ackAndListSubscriptionsNeedATokenThatMayUseTheSpace() {
    stub("writer-secret").append(Wire.append("a", Wire.blocks(feed, "x", 0, 2)));
    String durable = stub("writer-secret").subscribe(SubscribeRequest.newBuilder().setSpaceId("a").addFeedIds(feed.value())
        .setDurable(true).setName("worker").build()).getSubscriptionId();
    AckRequest ack = AckRequest.newBuilder().setSpaceId("a").setSubscriptionId(durable).setUpTo(2).build();

    assertDenied(Status.Code.UNAUTHENTICATED, "", () -> FeedSyncGrpc.newBlockingStub(channel).ack(ack));
    assertDenied(Status.Code.UNAUTHENTICATED, "",
        () -> FeedSyncGrpc.newBlockingStub(channel).listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("a").build()));
    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("writer-secret").ack(ack.toBuilder().setSpaceId("b").build()));
    assertDenied(Status.Code.PERMISSION_DENIED, "may not use space 'b'",
        () -> stub("writer-secret").listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("b").build()));
    assertEquals(0, stub("reader-secret").listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId("a").build())
        .getSubscriptions(0).getAcked(), "refused acknowledgements moved nothing");

    assertEquals(2, stub("writer-secret").ack(ack).getAcked());
  }

  @Test
  void watchStreamsNeedATokenThatMayReadTheSpace() {
    EventRecorder<WatchEvent> allowed = new EventRecorder<>();
    FeedSyncGrpc.newStub(channel).withInterceptors(bearer("reader-secret"))
        .watch(WatchRequest.newBuilder().setSpaceId("a").build(), allowed);
    assertTrue(allowed.next(Duration.ofSeconds(20)).hasCaughtUp());

    EventRecorder<WatchEvent> anonymous = new EventRecorder<>();
    FeedSyncGrpc.newStub(channel).watch(WatchRequest.newBuilder().setSpaceId("a").build(), anonymous);
    assertEquals(Status.Code.UNAUTHENTICATED, anonymous.awaitEnd().getCode());

    EventRecorder<WatchEvent> elsewhere = new EventRecorder<>();
    FeedSyncGrpc.newStub(channel).withInterceptors(bearer("writer-secret"))
        .watch(WatchRequest.newBuilder().setSpaceId("b").build(), elsewhere);
    assertEquals(Status.Code.PERMISSION_DENIED, elsewhere.awaitEnd().getCode());
  }

  @Test
  void healthChecksNeedNoToken() {
    assertEquals("SERVING", HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.getDefaultInstance())
        .getStatus().name());
  }

  @Test
  void aTokensFileThatDoesNotParseIsRefusedNamingTheLine() throws Exception {
    Path plain = dir.resolve("plain");
    Files.writeString(plain, "# oops: the token itself\nwriter-secret write a\n");
    Path level = dir.resolve("level");
    Files.writeString(level, AccessTokens.sha256("t") + " owner *\n");

    IllegalArgumentException notHashed = assertThrows(IllegalArgumentException.class, () -> AccessTokens.read(plain));
    IllegalArgumentException badLevel = assertThrows(IllegalArgumentException.class, () -> AccessTokens.read(level));

    assertEquals(plain + " line 2: the first field must be the 64 lower-case hex digits of the token's SHA-256,"
        + " not the token itself", notHashed.getMessage());
    assertEquals(level + " line 1: the second field must be read, write or admin, was 'owner'", badLevel.getMessage());
  }

  private FeedSyncGrpc.FeedSyncBlockingStub stub(String token) {
    return FeedSyncGrpc.newBlockingStub(channel).withInterceptors(bearer(token));
  }

  private static io.grpc.ClientInterceptor bearer(String token) {
    return MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer(token));
  }

  private static void assertDenied(Status.Code code, String text, org.junit.jupiter.api.function.Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getStatus().toString());
    assertTrue(e.getStatus().getDescription().contains(text), e.getStatus().getDescription());
  }
}
