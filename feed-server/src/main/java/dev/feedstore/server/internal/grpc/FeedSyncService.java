package dev.feedstore.server.internal.grpc;

import static dev.feedstore.server.settings.ServerSettings.APPEND_STREAM_WINDOW;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SetRetentionResponse;
import dev.feedstore.proto.v1.CompactResponse;
import dev.feedstore.proto.v1.AckRequest;
import dev.feedstore.proto.v1.AckResponse;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.AppendStreamResponse;
import dev.feedstore.proto.v1.Block;
import dev.feedstore.proto.v1.DurableSubscription;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.GetServerInfoRequest;
import dev.feedstore.proto.v1.GetServerInfoResponse;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListFeedsResponse;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.SubscribeRequest;
import dev.feedstore.proto.v1.SubscribeResponse;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.access.PrincipalLimits;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.AppendOrder;
import dev.feedstore.server.internal.authority.AppendResult;
import dev.feedstore.server.internal.authority.CompactResult;
import dev.feedstore.server.internal.authority.DurableList;
import dev.feedstore.server.internal.authority.FeedList;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.QueryResult;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.RetentionResult;
import dev.feedstore.server.internal.authority.SubscribeResult;
import dev.feedstore.server.internal.core.ApiCalls;
import dev.feedstore.server.internal.core.BlockAccess;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.live.Watches;
import dev.feedstore.server.internal.queries.LiveQueries;
import dev.feedstore.server.internal.queries.ResumeToken;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.proto.WireQueries;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.requests.Requests;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.settings.ServerSettings;
import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.StatusException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The {@code feed.v1.FeedSync} service: validates wire requests ({@link WireRequests}), checks that
 * the caller may read or write what they name ({@link BlockAccess}), runs them on the {@link
 * PositionAuthority} or opens {@link Watches}, and turns failures into statuses
 * ({@link Failures}). Rejected requests are logged at a bounded rate; the server's own failures
 * are logged with their cause, also at a bounded rate.
 *
 * <p>Thread-safe. Handlers block on the store, so they run on the server's request executor, but
 * for Append, which may run on the transport's own threads ({@code FeedServer} puts it there when
 * authenticating a caller cannot block): an Append blocks on nothing but to load a space this
 * process has not served yet, and that Append, or one larger than {@value #INLINE_APPEND_BYTES}
 * bytes, moves to the request executor first. An Append then waits for its group holding no
 * thread, and is answered from the thread that answers its group ({@code AppendQueue}).
 */
public final class FeedSyncService extends FeedSyncGrpc.FeedSyncImplBase {
  /** The largest Append (serialized) that is checked and decoded on the thread it arrived on. */
  static final int INLINE_APPEND_BYTES = 64 * 1024;

  private final PositionAuthority authority;
  private final Watches watches;
  private final LiveQueries liveQueries;
  private final ServerSettings settings;
  private final RateLimitedLog rejections;
  private final RateLimitedLog failures;
  private final PrincipalLimits principals;
  private final ApiCalls calls;
  private final BlockAccess access;
  /** The server's request executor, for the Appends that may block ({@link #append}). */
  private final Executor requests;

  FeedSyncService(PositionAuthority authority, Watches watches, LiveQueries liveQueries, RateLimitedLog rejections,
      RateLimitedLog failures, PrincipalLimits principals, ApiCalls calls, BlockAccess access, Executor requests) {
    this.liveQueries = liveQueries;
    this.requests = requests;
    this.calls = calls;
    this.access = access;
    this.principals = principals;
    this.authority = authority;
    this.watches = watches;
    this.settings = authority.settings();
    this.rejections = rejections;
    this.failures = failures;
  }

  @Override
  public void append(AppendRequest request, StreamObserver<AppendResponse> responses) {
    BiConsumer<AppendResponse, StatusException> answer = (response, refusal) -> {
      if (refusal != null) {
        responses.onError(refusal);
        return;
      }
      responses.onNext(response);
      responses.onCompleted();
    };
    if (!mayBlock(request)) {
      appendNow(request, Optional.empty(), answer);
      return;
    }
    try {
      requests.execute(Context.current().wrap(() -> appendNow(request, Optional.empty(), answer)));
    } catch (RejectedExecutionException e) {
      answer.accept(null, reject("Append", request.getSpaceId(), request.getRequestId(), new ShuttingDownException()));
    }
  }

  @Override
  public StreamObserver<AppendRequest> appendStream(StreamObserver<AppendStreamResponse> responses) {
    return AppendStreamCall.start((ServerCallStreamObserver<AppendStreamResponse>) responses,
        settings.get(APPEND_STREAM_WINDOW), requests, this::mayBlock,
        (request, order, answer) -> appendNow(request, Optional.of(order), answer),
        request -> reject("AppendStream", request.getSpaceId(), request.getRequestId(), new ShuttingDownException()));
  }

  /** Whether the Append is large or may read the store to load its space; an invalid space id reads nothing. */
  private boolean mayBlock(AppendRequest request) {
    if (request.getSerializedSize() > INLINE_APPEND_BYTES) {
      return true;
    }
    SpaceId spaceId;
    try {
      spaceId = WireMapping.spaceId(request.getSpaceId());
    } catch (RuntimeException e) {
      return false; // refused by appendNow without the store
    }
    return !authority.appendsWithoutReading(spaceId);
  }

  /**
   * Checks and submits the append, as the next of a stream's when {@code order} is given; {@code
   * answer} gets the response or the refusal, from the thread that answers the append's group (or
   * this one, when the append is refused before it is submitted). A refused append of a stream
   * refuses the stream's later appends of its feeds.
   */
  private void appendNow(AppendRequest request, Optional<AppendOrder> order,
      BiConsumer<AppendResponse, StatusException> answer) {
    String method = order.isPresent() ? "AppendStream" : "Append";
    String spaceId = request.getSpaceId();
    String requestId = request.getRequestId();
    try {
      admit("Append", spaceId, requestId);
      principals.admitAppend(AccessInterceptor.caller().principal(),
          request.getBlocksList().stream().mapToLong(block -> block.getData().size()).sum());
      // Answered from the thread that answers the append's group, in this call's context (its logs name this caller).
      Context context = Context.current();
      AppendCommand command = access.append(AccessInterceptor.caller(), method,
          WireRequests.append(request, settings.limits()));
      BiConsumer<AppendResult, RuntimeException> done = (result, failure) -> context.run(() -> {
        if (failure != null) {
          answer.accept(null, reject(method, spaceId, requestId, failure));
          return;
        }
        answer.accept(AppendResponse.newBuilder()
            .setRequestId(requestId)
            .addAllPositions(Arrays.stream(result.positions()).boxed().toList())
            .addAllReceivedAt(Arrays.stream(result.receivedAt()).boxed().toList())
            .setServerToken(result.token().value())
            .build(), null);
      });
      if (order.isPresent()) {
        authority.append(command, order.get(), done);
      } else {
        authority.append(command, done);
      }
    } catch (RuntimeException e) {
      order.ifPresent(o -> o.refuse(spaceId, request.getBlocksList().stream().map(Block::getFeedId).toList()));
      answer.accept(null, reject(method, spaceId, requestId, e));
    }
  }

  @Override
  public void query(QueryRequest request, StreamObserver<QueryResponse> responses) {
    unary("Query", request.getSpaceId(), request.getRequestId(), responses, () -> {
      ReadRequest read = WireRequests.query(request, settings);
      access.read(AccessInterceptor.caller(), "Query", read);
      QueryResult result = authority.query(read);
      Page page = result.page();
      QueryResponse.Builder response = QueryResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setHasMore(page.hasMore())
          .setMaxPosition(page.maxPosition().value())
          .setFloor(page.floor().value())
          .setServerToken(result.token().value());
      page.blocks().forEach(block -> response.addBlocks(WireMapping.toWire(block)));
      page.cursorBlock().ifPresent(key -> response.setCursorBlock(WireMapping.toWire(key)));
      page.cursorChain().ifPresent(response::setCursorChain);
      page.lastChain().ifPresent(response::setLastChain);
      page.namespaces().forEach((feed, ns) -> response.putFeedNamespaces(feed.value(), ns.value()));
      result.startCursor().ifPresent(response::setStartCursor);
      return response.build();
    });
  }

  @Override
  public void subscribe(SubscribeRequest request, StreamObserver<SubscribeResponse> responses) {
    unary("Subscribe", request.getSpaceId(), request.getRequestId(), responses, () -> {
      SubscribeResult result = calls.subscribe(AccessInterceptor.caller(), WireRequests.subscribe(request, settings));
      Subscription subscription = result.subscription();
      return SubscribeResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setSubscriptionId(subscription.id())
          .setExpiresAt(subscription.expiresAtMillis())
          .setServerToken(result.token().value())
          .setAcked(subscription.durable().map(Subscription.Durable::acked).orElse(0L))
          .setCreated(result.created())
          .build();
    });
  }

  @Override
  public void ack(AckRequest request, StreamObserver<AckResponse> responses) {
    unary("Ack", request.getSpaceId(), request.getRequestId(), responses, () -> {
      SubscribeResult result = calls.ack(AccessInterceptor.caller(), WireMapping.spaceId(request.getSpaceId()),
          Requests.subscriptionId(request.getSubscriptionId()), request.getUpTo());
      return AckResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setAcked(result.subscription().durable().orElseThrow().acked())
          .setExpiresAt(result.subscription().expiresAtMillis())
          .setServerToken(result.token().value())
          .build();
    });
  }

  @Override
  public void listSubscriptions(ListSubscriptionsRequest request, StreamObserver<ListSubscriptionsResponse> responses) {
    unary("ListSubscriptions", request.getSpaceId(), request.getRequestId(), responses, () -> {
      DurableList list = calls.subscriptions(AccessInterceptor.caller(), WireMapping.spaceId(request.getSpaceId()));
      ListSubscriptionsResponse.Builder response = ListSubscriptionsResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setMaxPosition(list.maxPosition())
          .setServerToken(list.token().value());
      for (Subscription subscription : list.subscriptions()) {
        Subscription.Durable durable = subscription.durable().orElseThrow();
        DurableSubscription.Builder wire = DurableSubscription.newBuilder()
            .setSubscriptionId(subscription.id())
            .setAcked(durable.acked())
            .setLag(Math.max(0, list.maxPosition() - durable.acked()))
            .setExpiresAt(subscription.expiresAtMillis())
            .setExpired(subscription.isExpiredAt(list.nowMillis()));
        durable.name().ifPresent(wire::setName);
        response.addSubscriptions(wire);
      }
      return response.build();
    });
  }

  @Override
  public void listFeeds(ListFeedsRequest request, StreamObserver<ListFeedsResponse> responses) {
    unary("ListFeeds", request.getSpaceId(), request.getRequestId(), responses, () -> {
      SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
      Optional<Namespace> namespace = request.hasNamespace()
          ? Optional.of(WireMapping.namespace(request.getNamespace(), "namespace"))
          : Optional.empty();
      Optional<FeedId> after = request.hasAfterFeedId()
          ? Optional.of(WireMapping.feedId(request.getAfterFeedId(), "after_feed_id"))
          : Optional.empty();
      FeedList list = calls.feeds(AccessInterceptor.caller(), spaceId, namespace, after,
          Requests.listLimit(request.getLimit(), settings));
      ListFeedsResponse.Builder response = ListFeedsResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setHasMore(list.hasMore())
          .setMaxPosition(list.maxPosition().value())
          .setServerToken(list.token().value());
      for (FeedInfo feed : list.feeds()) {
        response.addFeeds(WireMapping.toWire(feed));
      }
      return response.build();
    });
  }

  @Override
  public void compact(CompactRequest request, StreamObserver<CompactResponse> responses) {
    unary("Compact", request.getSpaceId(), request.getRequestId(), responses, () -> {
      SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
      CompactResult result = calls.compact(AccessInterceptor.caller(), spaceId, Requests.upTo(request.getUpTo()));
      return CompactResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setFloor(result.floor().value())
          .setRemoved(result.removed())
          .setServerToken(result.token().value())
          .build();
    });
  }

  @Override
  public void setRetention(SetRetentionRequest request, StreamObserver<SetRetentionResponse> responses) {
    unary("SetRetention", request.getSpaceId(), request.getRequestId(), responses, () -> {
      SpaceId spaceId = WireMapping.spaceId(request.getSpaceId());
      RetentionResult result = calls.setRetention(AccessInterceptor.caller(), spaceId, WireRequests.retention(request));
      return SetRetentionResponse.newBuilder()
          .setRequestId(request.getRequestId())
          .setBlocks(result.retention().blocks().orElse(0))
          .setAgeMs(result.retention().ageMillis().orElse(0))
          .setBytes(result.retention().bytes().orElse(0))
          .setServerDefault(result.serverDefault())
          .setFloor(result.floor().value())
          .setServerToken(result.token().value())
          .build();
    });
  }

  @Override
  public void getServerInfo(GetServerInfoRequest request, StreamObserver<GetServerInfoResponse> responses) {
    ApiCalls.ServerInfo info;
    try {
      WireRequests.requestId(request.getRequestId());
      info = calls.serverInfo(AccessInterceptor.caller());
      principals.admitRequest(AccessInterceptor.caller().principal());
    } catch (RuntimeException e) {
      responses.onError(reject("GetServerInfo", "", request.getRequestId(), e));
      return;
    }
    responses.onNext(GetServerInfoResponse.newBuilder()
        .setRequestId(request.getRequestId())
        .setVersion(info.version())
        .setMaxMessageBytes(info.maxMessageBytes())
        .setBlocksPerAppend(info.blocksPerAppend())
        .setBlockBytes(info.blockBytes())
        .setQueryLimit(info.queryLimit())
        .setMaxResponseBytes(info.maxResponseBytes())
        .build());
    responses.onCompleted();
  }

  /**
   * Watch, answering with {@link WatchFrame}s (bound by {@link #definition} in place of the
   * generated {@code watch}, which answers with messages that every stream would encode again).
   */
  void watchFrames(WatchRequest request, StreamObserver<WatchFrame> events) {
    try {
      WireRequests.requestId(request.getRequestId());
      Caller caller = AccessInterceptor.caller();
      caller.check("Watch", request.getSpaceId(), false);
      principals.admitRequest(caller.principal());
      ReadRequest read = WireRequests.watch(request, settings);
      access.read(caller, "Watch", read);
      watches.open(read, new GrpcWatchSink(request.getRequestId(), (ServerCallStreamObserver<WatchFrame>) events),
          "grpc " + ConnectionInterceptor.remoteAddress(), caller);
    } catch (RuntimeException e) {
      events.onError(reject("Watch", request.getSpaceId(), request.getRequestId(), e));
    }
  }

  /**
   * LiveQuery: the query checked (a clause that cannot be evaluated is {@code INVALID_ARGUMENT}
   * naming it), the caller's grants checked against its scope, then a subscription of the shared
   * query writing to the call, in {@link LiveQueryFrame}s (bound by {@link #definition} in place of the
   * generated method).
   */
  void liveQueryFrames(LiveQueryRequest request, StreamObserver<LiveQueryFrame> events) {
    try {
      WireRequests.requestId(request.getRequestId());
      Caller caller = AccessInterceptor.caller();
      caller.check("LiveQuery", request.getSpaceId(), false);
      principals.admitRequest(caller.principal());
      LiveQuery query = WireQueries.query(request);
      Optional<ResumeToken> resume = request.hasResumeToken() && !request.getResumeToken().isEmpty()
          ? Optional.of(ResumeToken.parse(request.getResumeToken(), "resume_token")) : Optional.empty();
      access.liveQuery(caller, query.space(), query.scope());
      liveQueries.open(query, resume, new GrpcQuerySink(request.getRequestId(),
          (ServerCallStreamObserver<LiveQueryFrame>) events), "grpc " + ConnectionInterceptor.remoteAddress(), caller);
    } catch (RuntimeException e) {
      events.onError(reject("LiveQuery", request.getSpaceId(), request.getRequestId(), e));
    }
  }

  /**
   * The generated definition, with Watch bound to {@link #watchFrames} and LiveQuery to {@link
   * #liveQueryFrames} through method descriptors that marshal events encoded once for many streams
   * ({@link WatchFrame}, {@link LiveQueryFrame}): the same wire messages, the same schema for
   * reflection.
   */
  ServerServiceDefinition definition() {
    ServerServiceDefinition generated = bindService();
    MethodDescriptor<WatchRequest, WatchFrame> watch = FeedSyncGrpc.getWatchMethod()
        .toBuilder(ProtoUtils.marshaller(WatchRequest.getDefaultInstance()), WatchFrame.MARSHALLER)
        .build();
    MethodDescriptor<LiveQueryRequest, LiveQueryFrame> liveQuery = FeedSyncGrpc.getLiveQueryMethod()
        .toBuilder(ProtoUtils.marshaller(LiveQueryRequest.getDefaultInstance()), LiveQueryFrame.MARSHALLER)
        .build();
    Map<String, ServerMethodDefinition<?, ?>> replaced = Map.of(
        watch.getFullMethodName(),
        ServerMethodDefinition.create(watch, ServerCalls.asyncServerStreamingCall(this::watchFrames)),
        liveQuery.getFullMethodName(),
        ServerMethodDefinition.create(liveQuery, ServerCalls.asyncServerStreamingCall(this::liveQueryFrames)));
    ServiceDescriptor service = generated.getServiceDescriptor();
    ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(service.getName())
        .setSchemaDescriptor(service.getSchemaDescriptor());
    for (MethodDescriptor<?, ?> method : service.getMethods()) {
      ServerMethodDefinition<?, ?> replacement = replaced.get(method.getFullMethodName());
      descriptor.addMethod(replacement != null ? replacement.getMethodDescriptor() : method);
    }
    ServerServiceDefinition.Builder definition = ServerServiceDefinition.builder(descriptor.build());
    for (ServerMethodDefinition<?, ?> method : generated.getMethods()) {
      definition.addMethod(replaced.getOrDefault(method.getMethodDescriptor().getFullMethodName(), method));
    }
    return definition.build();
  }

  private <T> void unary(String method, String spaceId, String requestId, StreamObserver<T> responses,
      Supplier<T> work) {
    T response;
    try {
      admit(method, spaceId, requestId);
      response = work.get();
    } catch (RuntimeException e) {
      responses.onError(reject(method, spaceId, requestId, e));
      return;
    }
    responses.onNext(response);
    responses.onCompleted();
  }

  /** Checks the request id, the caller's access and its request rate. */
  private void admit(String method, String spaceId, String requestId) {
    WireRequests.requestId(requestId);
    Caller caller = AccessInterceptor.caller();
    caller.check(method, spaceId, method.equals("Append"));
    principals.admitRequest(caller.principal());
  }

  private StatusException reject(String method, String spaceId, String requestId, RuntimeException failure) {
    StatusException status = Failures.toStatus(failure);
    String line = method + " from " + ConnectionInterceptor.remoteAddress() + " (space '" + RateLimitedLog.clip(spaceId)
        + "', request_id '" + RateLimitedLog.clip(requestId) + "') " + status.getStatus().getCode() + ": "
        + status.getStatus().getDescription();
    if (failure instanceof StorageFaultException fault) {
      // The server's own failure, though its code may look like a rejection; its message says it all.
      failures.log("failed " + line + " (" + fault.getMessage() + ")", null);
    } else if (Failures.isRejection(status.getStatus().getCode())) {
      rejections.log("rejected " + line, null);
    } else {
      failures.log("failed " + line, failure);
    }
    return status;
  }
}
