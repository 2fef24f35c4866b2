package dev.feedstore.client.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * How a {@link Scope} is named on the wire. The wire names one kind of scope per read (a feed list,
 * a namespace, or a subscription); a selection of both feeds and namespaces, or of many feeds,
 * becomes a subscription, made once and remembered until the authority forgets it. Thread-safe.
 */
public final class ScopeRequests {
  /** Above this many feeds a read names a subscription instead of listing them every time. */
  static final int MAX_LISTED_FEEDS = 64;

  /** The wire form of a scope: at most one of the three is set. */
  public record WireScope(java.util.List<String> feedIds, Optional<String> namespace, Optional<String> subscriptionId) {}

  private record Key(SpaceId space, Scope.Selection scope) {}

  private final Map<Key, String> subscriptions = new ConcurrentHashMap<>();
  private final Supplier<FeedSyncGrpc.FeedSyncBlockingStub> stub;
  private final long subscriptionTtlMillis;

  public ScopeRequests(Supplier<FeedSyncGrpc.FeedSyncBlockingStub> stub, long subscriptionTtlMillis) {
    this.stub = stub;
    this.subscriptionTtlMillis = subscriptionTtlMillis;
  }

  /** The wire form of {@code scope}, subscribing first if it needs a subscription. */
  public WireScope wire(SpaceId space, Scope scope) {
    if (!(scope instanceof Scope.Selection selection)) {
      return new WireScope(java.util.List.of(), Optional.empty(), Optional.empty());
    }
    if (selection.namespaces().isEmpty() && selection.feeds().size() <= MAX_LISTED_FEEDS) {
      return new WireScope(selection.feeds().stream().map(FeedId::value).toList(), Optional.empty(), Optional.empty());
    }
    if (selection.feeds().isEmpty() && selection.namespaces().size() == 1) {
      return new WireScope(java.util.List.of(), Optional.of(selection.namespaces().first().value()), Optional.empty());
    }
    String id = subscriptions.computeIfAbsent(new Key(space, selection), key -> subscribe(space, selection));
    return new WireScope(java.util.List.of(), Optional.empty(), Optional.of(id));
  }

  /** Forgets the subscription of {@code scope}, after the authority answered that it does not know it. */
  public void forget(SpaceId space, Scope scope) {
    if (scope instanceof Scope.Selection selection) {
      subscriptions.remove(new Key(space, selection));
    }
  }

  private String subscribe(SpaceId space, Scope.Selection selection) {
    SubscribeResponse response = stub.get().subscribe(SubscribeRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(space.value())
        .addAllFeedIds(selection.feeds().stream().map(FeedId::value).toList())
        .addAllNamespaces(selection.namespaces().stream().map(Namespace::value).toList())
        .setTtlMs(subscriptionTtlMillis)
        .build());
    return response.getSubscriptionId();
  }
}
