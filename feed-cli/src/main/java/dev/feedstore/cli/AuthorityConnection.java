package dev.feedstore.cli;

import dev.feedstore.client.Appender;
import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.proto.WireHeaders;
import dev.feedstore.proto.v1.CompactRequest;
import dev.feedstore.proto.v1.CompactResponse;
import dev.feedstore.proto.v1.SetRetentionRequest;
import dev.feedstore.proto.v1.SetRetentionResponse;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.ListFeedsRequest;
import dev.feedstore.proto.v1.ListFeedsResponse;
import dev.feedstore.proto.v1.ListSubscriptionsRequest;
import dev.feedstore.proto.v1.ListSubscriptionsResponse;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.LiveQueryEvent;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Channel;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.ChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection (plain text or TLS) to a position authority, with a deadline on every unary call and a
 * request id ({@code feedctl-RANDOM-N}) on every request, so that the server's log lines can be
 * matched with a run. Owns its channel: {@link #close} shuts it down, which also cancels an open
 * Watch. Thread-safe.
 */
final class AuthorityConnection implements AutoCloseable {
  private final ManagedChannel channel;
  /** The channel with the interceptors (the access token), for calls made elsewhere. */
  private final Channel intercepted;
  private final FeedSyncGrpc.FeedSyncBlockingStub stub;
  private final Duration deadline;
  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong requests = new AtomicLong();

  private AuthorityConnection(ManagedChannel channel, Duration deadline, ClientInterceptor... interceptors) {
    this.channel = channel;
    this.intercepted = ClientInterceptors.intercept(channel, interceptors);
    this.stub = FeedSyncGrpc.newBlockingStub(intercepted);
    this.deadline = deadline;
  }

  static AuthorityConnection connect(ServerAddress address, ChannelCredentials credentials, Duration deadline,
      Optional<String> token) {
    ManagedChannel channel = Grpc.newChannelBuilder(address.target(), credentials).maxInboundMessageSize(64 << 20)
        .build();
    if (token.isEmpty()) {
      return over(channel, deadline);
    }
    return over(channel, deadline, MetadataUtils.newAttachHeadersInterceptor(WireHeaders.bearer(token.get())));
  }

  /**
   * An authority over {@code channel}, which it then owns and shuts down on {@link #close}; its calls
   * pass through {@code interceptors}.
   */
  static AuthorityConnection over(ManagedChannel channel, Duration deadline, ClientInterceptor... interceptors) {
    return new AuthorityConnection(channel, deadline, interceptors);
  }

  /**
   * The connection as a channel for a client of the library (with the access token), which does not
   * own it: {@link #close} still shuts it down.
   */
  Channel channel() {
    return intercepted;
  }

  /** An appender over this connection keeping up to {@code inFlight} Appends in flight; closing it keeps the connection. */
  Appender appender(int inFlight) {
    return AuthorityChannel.appender(intercepted).maxCallsInFlight(inFlight).callDeadline(deadline).build();
  }

  /** The deadline of each unary call. */
  Duration deadline() {
    return deadline;
  }

  AppendResponse append(AppendRequest.Builder request) {
    return unary().append(request.setRequestId(nextId()).build());
  }

  QueryResponse query(QueryRequest.Builder request) {
    return unary().query(request.setRequestId(nextId()).build());
  }

  ListSubscriptionsResponse listSubscriptions(ListSubscriptionsRequest.Builder request) {
    return unary().listSubscriptions(request.setRequestId(nextId()).build());
  }

  ListFeedsResponse listFeeds(ListFeedsRequest.Builder request) {
    return unary().listFeeds(request.setRequestId(nextId()).build());
  }

  /** Compacts without the deadline of other calls: removing much history takes its time. */
  CompactResponse compact(CompactRequest.Builder request) {
    return stub.compact(request.setRequestId(nextId()).build());
  }

  /** Sets a retention, which is applied at once: no deadline, as {@link #compact}. */
  SetRetentionResponse setRetention(SetRetentionRequest.Builder request) {
    return stub.setRetention(request.setRequestId(nextId()).build());
  }

  /**
   * Opens a Watch stream. Its iterator blocks for the next event and throws the status the stream
   * ends with; closing it cancels the stream. No deadline: the stream lasts until it ends, it is
   * closed, or this authority is. With {@code waitForReady}, opening waits for the server to be
   * reachable instead of failing at once.
   */
  StreamCall<WatchEvent> watch(WatchRequest.Builder request, boolean waitForReady) {
    WatchRequest built = request.setRequestId(nextId()).build();
    return stream(waitForReady, watching -> watching.watch(built));
  }

  /** Opens a LiveQuery stream, as {@link #watch} opens a Watch stream. */
  StreamCall<LiveQueryEvent> liveQuery(LiveQueryRequest.Builder request) {
    LiveQueryRequest built = request.setRequestId(nextId()).build();
    return stream(false, live -> live.liveQuery(built));
  }

  private <T> StreamCall<T> stream(boolean waitForReady,
      java.util.function.Function<FeedSyncGrpc.FeedSyncBlockingStub, Iterator<T>> open) {
    Context.CancellableContext context = Context.current().withCancellation();
    FeedSyncGrpc.FeedSyncBlockingStub calling = waitForReady ? stub.withWaitForReady() : stub;
    Context previous = context.attach(); // the call belongs to the context, so cancelling it ends the call
    try {
      return new StreamCall<>(open.apply(calling), context);
    } finally {
      context.detach(previous);
    }
  }

  /** An open server stream: its events, and {@link #close} to cancel it. */
  record StreamCall<T>(Iterator<T> events, Context.CancellableContext context) implements AutoCloseable {
    @Override
    public void close() {
      context.cancel(null);
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private FeedSyncGrpc.FeedSyncBlockingStub unary() {
    return stub.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  private String nextId() {
    return "feedctl-" + runId + "-" + requests.incrementAndGet();
  }
}
