package dev.feedstore.client.simulation;

import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HashSet;
import java.util.Set;

/**
 * A consumer with no local state of its own: a durable subscription (by name) to the feeds of
 * {@link World#SHARED}, read from its acknowledged position a page at a time and acknowledged as it
 * reads. It remembers every block it was delivered, so that the invariants can tell whether the
 * authority ever took a block from under it. Not thread-safe.
 */
final class DurableConsumer {
  /** Long enough that no subscription of a schedule expires: expiry has tests of its own. */
  private static final long ACK_WITHIN_MS = 3_600_000;
  private static final int PAGE = 5;

  private final String name;
  /** Every block delivered, as "position:feed/actor/sequence". */
  final Set<String> delivered = new HashSet<>();
  private String subscriptionId;

  DurableConsumer(String name) {
    this.name = name;
  }

  static String entry(long position, String feed, String actor, long sequence) {
    return position + ":" + feed + "/" + actor + "/" + sequence;
  }

  /**
   * Reads one page from the acknowledged position and acknowledges it; an authority that does not
   * know the subscription (swapped, rolled back to before it) gets it anew, from the start.
   *
   * @return whether the page was the last one (nothing more to read now)
   */
  boolean consume(Channel channel) {
    FeedSyncGrpc.FeedSyncBlockingStub stub = FeedSyncGrpc.newBlockingStub(channel);
    try {
      if (subscriptionId == null) {
        subscriptionId = stub.subscribe(SubscribeRequest.newBuilder().setRequestId(name).setSpaceId(World.SPACE.value())
            .addNamespaces(World.SHARED.value()).setDurable(true).setAckWithinMs(ACK_WITHIN_MS).setName(name).build())
            .getSubscriptionId();
      }
      QueryResponse page = stub.query(QueryRequest.newBuilder().setRequestId(name).setSpaceId(World.SPACE.value())
          .setSubscriptionId(subscriptionId).setFromAck(true).setLimit(PAGE).build());
      long last = 0;
      for (Block block : page.getBlocksList()) {
        delivered.add(entry(block.getPosition(), block.getFeedId(), block.getActorId(), block.getSequence()));
        last = block.getPosition();
      }
      if (!page.getHasMore()) {
        // Every block of the scope up to the authority's highest position was in the page.
        last = Math.max(last, page.getMaxPosition());
      }
      if (last > 0) {
        stub.ack(AckRequest.newBuilder().setRequestId(name).setSpaceId(World.SPACE.value())
            .setSubscriptionId(subscriptionId).setUpTo(last).build());
      }
      return !page.getHasMore();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        subscriptionId = null;
      }
      return false;
    }
  }
}
