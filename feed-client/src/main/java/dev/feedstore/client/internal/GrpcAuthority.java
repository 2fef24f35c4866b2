package dev.feedstore.client.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.SequenceConflictException;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The position authority over gRPC, as the sync logic's {@link Authority}. Takes a {@link Channel}
 * and does not own it: whoever made the channel shuts it down. Thread-safe.
 *
 * <p>Failures become {@link AuthorityException}s: retryable for transport problems, deadlines and
 * {@code UNAVAILABLE}; a {@link SequenceConflictException} for {@code ALREADY_EXISTS}.
 */
public final class GrpcAuthority implements Authority {
  private final Channel channel;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final Duration deadline;
  private final ScopeRequests scopes;

  /**
   * @param channel the channel to the authority (not owned)
   * @param deadline the deadline of each unary call
   * @param subscriptionTtl how long subscriptions made for wide scopes live on the authority
   */
  public GrpcAuthority(Channel channel, Duration deadline, Duration subscriptionTtl) {
    this.channel = channel;
    this.blocking = FeedSyncGrpc.newBlockingStub(channel);
    this.async = FeedSyncGrpc.newStub(channel);
    this.deadline = deadline;
    Supplier<FeedSyncGrpc.FeedSyncBlockingStub> stub = this::stub;
    this.scopes = new ScopeRequests(stub, subscriptionTtl.toMillis());
  }

  public GrpcAuthority(Channel channel) {
    this(channel, Duration.ofSeconds(30), Duration.ofHours(1));
  }

  @Override
  public AppendReply append(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
    AppendRequest.Builder request = AppendRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(spaceId.value());
    namespace.ifPresent(ns -> request.setNamespace(ns.value()));
    blocks.forEach(b -> request.addBlocks(WireMapping.toWire(b.withoutPosition())));
    AppendResponse response;
    try {
      response = stub().append(request.build());
    } catch (StatusRuntimeException e) {
      throw translate(e, "append to " + spaceId);
    }
    List<Position> positions = new ArrayList<>(response.getPositionsCount());
    response.getPositionsList().forEach(p -> positions.add(Position.of(p)));
    return new AppendReply(positions, new ServerToken(response.getServerToken()));
  }

  @Override
  public PullPage pull(PullRequest request) {
    for (int attempt = 0; ; attempt++) {
      ScopeRequests.WireScope scope = wireScope(request);
      QueryRequest.Builder query = QueryRequest.newBuilder()
          .setRequestId(RequestIds.next())
          .setSpaceId(request.spaceId().value())
          .addAllFeedIds(scope.feedIds())
          .setCursor(request.cursor().value())
          .setLimit(request.limit());
      scope.namespace().ifPresent(query::setNamespace);
      scope.subscriptionId().ifPresent(query::setSubscriptionId);
      request.expectedServerToken().ifPresent(t -> query.setExpectedServerToken(t.value()));
      try {
        return WirePages.of(stub().query(query.build()));
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND && scope.subscriptionId().isPresent() && attempt == 0) {
          scopes.forget(request.spaceId(), request.scope());
          continue;
        }
        throw translate(e, "query of " + request.spaceId());
      }
    }
  }

  /**
   * Opens a Watch stream from the request's cursor. Events are handed to {@code handler} one at a
   * time; the next is requested only when {@link WatchStream#requestNext()} is called, so a slow
   * consumer never buffers more than one event.
   */
  public WatchStream watch(PullRequest request, WatchStream.Handler handler) {
    ScopeRequests.WireScope scope = wireScope(request);
    WatchRequest.Builder watch = WatchRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(request.spaceId().value())
        .addAllFeedIds(scope.feedIds())
        .setCursor(request.cursor().value());
    scope.namespace().ifPresent(watch::setNamespace);
    scope.subscriptionId().ifPresent(watch::setSubscriptionId);
    request.expectedServerToken().ifPresent(t -> watch.setExpectedServerToken(t.value()));
    Runnable onNotFound = () -> scopes.forget(request.spaceId(), request.scope());
    // The handler only queues the event for the session's thread: run it on the transport's thread
    // rather than hop through the channel's executor first.
    return WatchStream.open(async.withExecutor(Runnable::run), watch.build(), handler, onNotFound);
  }

  /**
   * Lets the channel try to connect again at once, instead of after its own backoff (which grows to
   * two minutes); the session keeps its own, shorter backoff. Only a {@link ManagedChannel} has one.
   */
  public void resetConnectBackoff() {
    if (channel instanceof ManagedChannel managed) {
      managed.resetConnectBackoff();
    }
  }

  private ScopeRequests.WireScope wireScope(PullRequest request) {
    try {
      return scopes.wire(request.spaceId(), request.scope());
    } catch (StatusRuntimeException e) {
      throw translate(e, "subscribe in " + request.spaceId());
    }
  }

  private FeedSyncGrpc.FeedSyncBlockingStub stub() {
    return blocking.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The authority's failure as an {@link AuthorityException}. */
  public static AuthorityException translate(StatusRuntimeException e, String call) {
    Status status = e.getStatus();
    String message = call + " failed: " + status.getCode()
        + (status.getDescription() == null ? "" : ": " + status.getDescription());
    if (status.getCode() == Status.Code.ALREADY_EXISTS) {
      Metadata trailers = e.getTrailers();
      AppendConflict conflict = trailers == null ? null : trailers.get(WireErrors.APPEND_CONFLICT);
      List<BlockKey> keys = new ArrayList<>();
      if (conflict != null) {
        for (int i = 0; i < conflict.getKeysCount(); i++) {
          keys.add(WireMapping.toDomain(conflict.getKeys(i), "keys[" + i + "]"));
        }
      }
      return new SequenceConflictException(keys, message);
    }
    return new AuthorityException(message, isRetryable(status.getCode()), e);
  }

  private static boolean isRetryable(Status.Code code) {
    return switch (code) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED, UNKNOWN, INTERNAL, RESOURCE_EXHAUSTED, NOT_FOUND -> true;
      default -> false;
    };
  }
}
