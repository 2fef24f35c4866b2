package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.ServerProcess;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At-least-once across a crash, with the runnable jar: a consumer of a durable subscription that
 * acknowledged part of what it received, then lost its server to SIGKILL, resumes on the restarted
 * server exactly after its last acknowledged position; what it received and did not acknowledge is
 * delivered again, and nothing it acknowledged is.
 */
class DurableSubscriptionCrashIT {
  @TempDir Path dir;
  ServerProcess server;
  ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void afterSigkillDeliveryResumesExactlyAfterTheLastAcknowledgedPosition() throws Exception {
    int port = ServerProcess.freePort();
    FeedId feed = TestBlocks.feedId();
    SubscribeRequest subscribe = SubscribeRequest.newBuilder().setSpaceId("s").addFeedIds(feed.value())
        .setDurable(true).setName("worker").setAckWithinMs(600_000).build();

    server = ServerProcess.start(dir, "feeds.db", port);
    FeedSyncGrpc.FeedSyncBlockingStub stub = connect(port);
    stub.append(Wire.append("s", Wire.blocks(feed, "a", 0, 10)));
    SubscribeResponse subscribed = stub.subscribe(subscribe);
    List<Long> received = receive(subscribed.getSubscriptionId(), 10);
    assertEquals(LongStream.rangeClosed(1, 10).boxed().toList(), received);
    for (long position = 1; position <= 4; position++) {
      stub.ack(AckRequest.newBuilder().setSpaceId("s").setSubscriptionId(subscribed.getSubscriptionId())
          .setUpTo(position).build());
    }

    server.kill();
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server = ServerProcess.start(dir, "feeds.db", port);
    stub = connect(port);
    SubscribeResponse resumed = stub.subscribe(subscribe);
    stub.append(Wire.append("s", Wire.blocks(feed, "a", 10, 2)));

    assertEquals(subscribed.getSubscriptionId(), resumed.getSubscriptionId(), "the name finds it after the crash");
    assertFalse(resumed.getCreated());
    assertEquals(4, resumed.getAcked());
    assertEquals(LongStream.rangeClosed(5, 12).boxed().toList(), receive(resumed.getSubscriptionId(), 8),
        "the unacknowledged 5..10 again, then the new blocks; none of 1..4");
  }

  private FeedSyncGrpc.FeedSyncBlockingStub connect(int port) {
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();
    server.awaitServing(channel);
    return FeedSyncGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  /** Opens a Watch from the subscription's acknowledged position and takes {@code count} block positions. */
  private List<Long> receive(String subscriptionId, int count) {
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    io.grpc.Context.CancellableContext context = io.grpc.Context.current().withCancellation();
    try {
      context.run(() -> FeedSyncGrpc.newStub(channel).watch(WatchRequest.newBuilder().setSpaceId("s")
          .setSubscriptionId(subscriptionId).setFromAck(true).build(), events));
      List<Long> positions = new ArrayList<>();
      while (positions.size() < count) {
        WatchEvent event = events.next();
        for (Block block : event.getBlocks().getBlocksList()) {
          positions.add(block.getPosition());
        }
      }
      return positions;
    } finally {
      context.cancel(null);
    }
  }
}
