package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.HostileCase;
import dev.feedstore.server.testing.NettyLeaks;
import dev.feedstore.server.testing.RawCalls;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.WatchCrowd;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import dev.feedstore.testing.TcpRelay;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Refused and cut-off calls give back every pooled buffer of gRPC's transport. With Netty's leak
 * detection at {@code paranoid} (every buffer tracked, see {@link NettyLeaks}), a server on a
 * SQLite file over loopback takes messages above {@code max-message-bytes} on every RPC, malformed
 * and refused requests, Watch streams cancelled while their history flows, connections reset under
 * reading and under stalled Watch streams, and an Append whose client stops in the middle of its
 * message; then a forced garbage collection must find no buffer that was dropped unreleased. The
 * clients run in this JVM and are tracked too, so they end every call they open.
 */
class BufferLeakTest {
  private static final int STREAMS = 50;
  private static final int HISTORY = 300;
  private static final int BLOCK_BYTES = 1024;
  private static final WatchRequest FROM_THE_START = WatchRequest.newBuilder().setSpaceId("s").build();

  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  final List<ManagedChannel> channels = new ArrayList<>();

  @Test
  void refusedAndCutOffCallsReleaseEveryBufferTheyTook() throws InterruptedException {
    try (NettyLeaks leaks = NettyLeaks.paranoid()) {
      leaks.collect(); // buffers that earlier tests of this JVM dropped are theirs
      try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
           TcpRelay relay = new TcpRelay(t.server.port())) {
        t.appendRange(feed, 0, HISTORY, ByteString.copyFrom(new byte[BLOCK_BYTES]));
        refusedRequests(t);
        watchesCancelledWhileHistoryFlows(t);
        connectionsResetUnderWatches(t, relay);
        appendCutOffInTheMiddleOfItsMessage(t, relay);
        for (ManagedChannel channel : channels) {
          channel.shutdownNow().awaitTermination(30, TimeUnit.SECONDS);
        }
      }

      assertEquals(List.of(), leaks.collect(), "buffers collected unreleased, with where each was created and used");
    }
  }

  /** Over the size limit on every RPC, a malformed message, and requests the service refuses. */
  private void refusedRequests(TestServer t) {
    HostileRequests requests = new HostileRequests(feed);
    List<HostileCase> cases = Stream.of(HostileSizeCases.all(requests), HostileIdCases.all(requests).subList(0, 3),
        HostileAppendCases.all(requests).subList(0, 3)).flatMap(List::stream).toList();
    for (HostileCase c : cases) {
      StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> c.call().send(t.channel));
      assertEquals(c.code(), refused.getStatus().getCode(), c.name());
    }
    byte[] garbage = {(byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertEquals(Status.Code.INVALID_ARGUMENT,
        RawCalls.call(t.channel, FeedSyncGrpc.getAppendMethod(), List.of(garbage)).getCode());
  }

  private void watchesCancelledWhileHistoryFlows(TestServer t) {
    WatchCrowd crowd = WatchCrowd.open(t.channel, FROM_THE_START, STREAMS);
    crowd.awaitAnswered();
    crowd.cancelAll();
    awaitReleased(t, "cancelled streams");
  }

  private void connectionsResetUnderWatches(TestServer t, TcpRelay relay) {
    WatchCrowd reading = WatchCrowd.open(channel(relay), FROM_THE_START, STREAMS);
    reading.awaitAnswered();
    relay.cutAll();
    awaitReleased(t, "streams whose connection was reset");

    ManagedChannel channel = channel(relay);
    long sent = relay.relayedToClients();
    List<ClientCall<WatchRequest, WatchEvent>> stalled = WatchCrowd.openStalled(channel, FROM_THE_START, STREAMS);
    Await.until("the stalled streams' history reached their client", Duration.ofSeconds(60),
        () -> relay.relayedToClients() - sent >= (long) STREAMS * HISTORY * BLOCK_BYTES);
    // An answer on the same connection comes after those bytes: once it is read, they are read too.
    FeedSyncGrpc.newBlockingStub(channel).listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build());
    relay.cutAll();
    awaitReleased(t, "stalled streams whose connection was reset");
    WatchCrowd.drop(stalled);
  }

  /** The client sends a megabyte and a bit of an 8 MiB Append, then its connection ends. */
  private void appendCutOffInTheMiddleOfItsMessage(TestServer t, TcpRelay relay) {
    ManagedChannel channel = channel(relay);
    FeedSyncGrpc.newBlockingStub(channel).listFeeds(ListFeedsRequest.newBuilder().setSpaceId("s").build());
    ByteString mib = ByteString.copyFrom(new byte[1 << 20]);
    List<dev.feedstore.proto.v1.Block> blocks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      blocks.add(Wire.block(feed, "a", HISTORY + i).toBuilder().setData(mib).build());
    }
    AppendRequest large = Wire.append("s", blocks);
    long part = (1 << 20) + 4321;
    long before = relay.relayedToTarget();
    relay.endToTargetAfter(part);

    EventRecorder<AppendResponse> answer = new EventRecorder<>();
    FeedSyncGrpc.newStub(channel).append(large, answer);

    assertEquals(Status.Code.UNAVAILABLE, answer.awaitEnd().getCode());
    assertEquals(part, relay.relayedToTarget() - before, "the server received that part of the call");
    assertEquals(List.of((long) HISTORY + 1), t.blocking().append(Wire.append("s", Wire.block(feed, "a", HISTORY)))
        .getPositionsList(), "nothing of the cut-off Append was stored");
  }

  private void awaitReleased(TestServer t, String what) {
    Await.until(what + " are released", Duration.ofSeconds(60), () -> t.server.openWatches() == 0);
  }

  private ManagedChannel channel(TcpRelay relay) {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", relay.port(),
        InsecureChannelCredentials.create()).maxInboundMessageSize(64 << 20).build();
    channels.add(channel);
    return channel;
  }
}
