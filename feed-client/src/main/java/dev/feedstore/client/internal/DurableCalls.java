package dev.feedstore.client.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The calls a durable consumer makes, over a {@link Channel} it does not own: find its subscription
 * by name, subscribe, acknowledge, and watch from the acknowledged position. Every unary call has
 * the deadline given; every failure is a {@link ConsumerCallFailure}. Thread-safe.
 */
public final class DurableCalls {
  private final Channel channel;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final Duration deadline;

  /** A durable subscription of a space as the authority lists it. */
  public record Listed(String id, Optional<String> name, Position acknowledged, boolean expired) {}

  /** The durable subscriptions of a space, and its highest position, from one snapshot. */
  public record Listing(java.util.List<Listed> subscriptions, Position highest) {
    /** The one named {@code name}, live or expired. */
    public Optional<Listed> named(String name) {
      return subscriptions.stream().filter(s -> s.name().equals(Optional.of(name))).findFirst();
    }
  }

  /** What Subscribe answered. */
  public record Subscribed(String id, boolean created, Position acknowledged) {}

  public DurableCalls(Channel channel, Duration deadline) {
    this.channel = channel;
    this.blocking = FeedSyncGrpc.newBlockingStub(channel).withMaxInboundMessageSize(GrpcAuthority.FALLBACK_INBOUND_BYTES);
    this.async = FeedSyncGrpc.newStub(channel).withMaxInboundMessageSize(GrpcAuthority.FALLBACK_INBOUND_BYTES);
    this.deadline = deadline;
  }

  public Listing list(SpaceId space) {
    ListSubscriptionsResponse response = call("ListSubscriptions of " + space, () -> stub().listSubscriptions(
        ListSubscriptionsRequest.newBuilder().setRequestId(RequestIds.next()).setSpaceId(space.value()).build()));
    java.util.List<Listed> listed = new java.util.ArrayList<>(response.getSubscriptionsCount());
    for (DurableSubscription subscription : response.getSubscriptionsList()) {
      listed.add(new Listed(subscription.getSubscriptionId(),
          subscription.hasName() ? Optional.of(subscription.getName()) : Optional.empty(),
          Position.of(subscription.getAcked()), subscription.getExpired()));
    }
    return new Listing(listed, Position.of(response.getMaxPosition()));
  }

  /**
   * Finds the live durable subscription {@code name} of {@code space}, or makes it (in place of an
   * expired one of that name).
   */
  public Subscribed subscribe(SpaceId space, Scope.Selection scope, String name, Optional<Duration> ackWithin) {
    SubscribeRequest.Builder request = SubscribeRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(space.value())
        .setDurable(true)
        .setName(name)
        .addAllFeedIds(scope.feeds().stream().map(FeedId::value).toList())
        .addAllNamespaces(scope.namespaces().stream().map(Namespace::value).toList());
    ackWithin.ifPresent(d -> request.setAckWithinMs(d.toMillis()));
    SubscribeResponse response = call("Subscribe to '" + name + "' in " + space, () -> stub().subscribe(request.build()));
    return new Subscribed(response.getSubscriptionId(), response.getCreated(), Position.of(response.getAcked()));
  }

  /**
   * Acknowledges up to {@code upTo} (a lower position only restarts the deadline).
   *
   * @return the acknowledged position now
   */
  public Position ack(SpaceId space, String subscriptionId, Position upTo) {
    return Position.of(call("Ack of " + space + " up to " + upTo, () -> stub().ack(AckRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(space.value())
        .setSubscriptionId(subscriptionId)
        .setUpTo(upTo.value())
        .build())).getAcked());
  }

  /**
   * Opens a Watch from the subscription's acknowledged position; events are handed to {@code
   * handler} on the transport's thread, one per {@link WatchStream#requestNext()}.
   */
  public WatchStream watchFromAck(SpaceId space, String subscriptionId, WatchStream.Handler handler) {
    WatchRequest request = WatchRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(space.value())
        .setSubscriptionId(subscriptionId)
        .setFromAck(true)
        .build();
    return WatchStream.open(async.withExecutor(Runnable::run), request, handler, () -> {});
  }

  /** Lets a {@link ManagedChannel} connect again at once instead of after its own, longer backoff. */
  public void resetConnectBackoff() {
    if (channel instanceof ManagedChannel managed) {
      managed.resetConnectBackoff();
    }
  }

  private FeedSyncGrpc.FeedSyncBlockingStub stub() {
    return blocking.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static <T> T call(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw ConsumerCallFailure.of(what, e.getStatus(), e);
    }
  }
}
