package dev.feedstore.client.testing;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.server.testing.Wire;
import io.grpc.Channel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Another client of the authority, beside the one under test, with plain blocking calls that wait
 * for the authority to be reachable (30 s at most): it appends (each feed's sequences counted from
 * 0), lists durable subscriptions, acknowledges and compacts. Not thread-safe.
 */
public final class OtherClient {
  private final Channel channel;
  private final SpaceId space;
  private final Map<FeedId, Long> sequences = new HashMap<>();

  public OtherClient(Channel channel, SpaceId space) {
    this.channel = channel;
    this.space = space;
  }

  /** Appends {@code count} blocks to {@code feed} (made in {@code namespace} by its first block); returns their positions. */
  public List<Long> append(FeedId feed, Namespace namespace, int count) {
    long first = sequences.getOrDefault(feed, 0L);
    List<Long> positions = stub().append(Wire.append(space.value(), Wire.blocks(feed, "producer", first, count))
        .toBuilder().setNamespace(namespace.value()).build()).getPositionsList();
    sequences.put(feed, first + count);
    return positions;
  }

  /** The durable subscription named {@code name}, as listed now. */
  public Optional<DurableSubscription> subscription(String name) {
    return stub().listSubscriptions(ListSubscriptionsRequest.newBuilder().setSpaceId(space.value()).build())
        .getSubscriptionsList().stream().filter(s -> s.getName().equals(name)).findFirst();
  }

  public long ack(String subscriptionId, long upTo) {
    return stub().ack(AckRequest.newBuilder().setSpaceId(space.value()).setSubscriptionId(subscriptionId)
        .setUpTo(upTo).build()).getAcked();
  }

  /** Compacts the space up to {@code upTo}; returns its floor after. */
  public long compact(long upTo) {
    return stub().compact(CompactRequest.newBuilder().setSpaceId(space.value()).setUpTo(upTo).build()).getFloor();
  }

  private FeedSyncGrpc.FeedSyncBlockingStub stub() {
    return FeedSyncGrpc.newBlockingStub(channel).withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS);
  }
}
