package dev.feedstore.client.internal;

import dev.feedstore.client.ServerInfo;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Limits;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendAbortedException;
import dev.feedstore.core.sync.AppendCall;
import dev.feedstore.core.sync.AppendOutcome;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.AuthorityLimitException;
import dev.feedstore.core.sync.AuthorityLimits;
import dev.feedstore.core.sync.ClosedFeedsException;
import dev.feedstore.core.sync.CompactedHistoryException;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.SequenceConflictException;
import dev.feedstore.proto.WireErrors;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.AppendConflict;
import dev.feedstore.proto.v1.AppendRequest;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.FeedSyncGrpc;
import dev.feedstore.proto.v1.GetServerInfoRequest;
import dev.feedstore.proto.v1.GetServerInfoResponse;
import dev.feedstore.proto.v1.LimitExceeded;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.WatchRequest;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The position authority over gRPC, as the sync logic's {@link Authority}. Takes a {@link Channel}
 * and does not own it: whoever made the channel shuts it down. Thread-safe.
 *
 * <p>It sizes what it sends and accepts by the authority's limits: those {@link #refreshInfo()}
 * asks for, lowered by any refusal that names a lower value (the {@code feed-limit-exceeded-bin}
 * trailer, or gRPC's own "message exceeds maximum size"), so that a refused request is never sent
 * again as it was.
 *
 * <p>Failures become {@link AuthorityException}s: retryable for transport problems, deadlines,
 * {@code UNAVAILABLE} and the authority's own failures; an {@link AuthorityLimitException} for a
 * request over a limit; a {@link SequenceConflictException} for {@code ALREADY_EXISTS}; a {@link
 * CompactedHistoryException} for a cursor below the floor ({@code CURSOR_COMPACTED}); not
 * retryable for refusals (access, bad input, other limits), whose cause carries the status.
 */
public final class GrpcAuthority implements Authority {
  /**
   * The messages accepted from an authority that does not state its limits (one that predates
   * GetServerInfo): its default responses fit with room to spare.
   */
  static final int FALLBACK_INBOUND_BYTES = 32 << 20;
  /** The most a response may grow the accepted message size to, whatever an authority says. */
  static final int MAX_INBOUND_BYTES = 256 << 20;
  /** gRPC's own refusal of a message over the receiver's limit: the limit, then the size. */
  private static final Pattern MESSAGE_SIZE = Pattern.compile("exceeds maximum size (\\d+)(?:: (\\d+))?");

  /** Appends kept in flight together by default ({@link #appendInOrder}). */
  public static final int DEFAULT_APPENDS_IN_FLIGHT = 8;

  private final Channel channel;
  private final AppendPipeline pipeline;
  /** False once the authority answered that it has no AppendStream. */
  private volatile boolean streams = true;
  private final FeedSyncGrpc.FeedSyncBlockingStub blocking;
  private final FeedSyncGrpc.FeedSyncStub async;
  private final Duration deadline;
  private final ScopeRequests scopes;
  private volatile AuthorityLimits limits = AuthorityLimits.DEFAULTS;
  private volatile int inboundBytes = FALLBACK_INBOUND_BYTES;
  private volatile Optional<ServerInfo> info = Optional.empty();

  /**
   * @param channel the channel to the authority (not owned)
   * @param deadline the deadline of each unary call
   * @param subscriptionTtl how long subscriptions made for wide scopes live on the authority
   * @param appendsInFlight the most appends {@link #appendInOrder} keeps in flight at once
   */
  public GrpcAuthority(Channel channel, Duration deadline, Duration subscriptionTtl, int appendsInFlight) {
    this.channel = channel;
    this.pipeline = new AppendPipeline(channel, appendsInFlight, "appends in flight", deadline);
    this.blocking = FeedSyncGrpc.newBlockingStub(channel);
    this.async = FeedSyncGrpc.newStub(channel);
    this.deadline = deadline;
    Supplier<FeedSyncGrpc.FeedSyncBlockingStub> stub = this::stub;
    this.scopes = new ScopeRequests(stub, subscriptionTtl.toMillis());
  }

  public GrpcAuthority(Channel channel, Duration deadline, Duration subscriptionTtl) {
    this(channel, deadline, subscriptionTtl, DEFAULT_APPENDS_IN_FLIGHT);
  }

  public GrpcAuthority(Channel channel) {
    this(channel, Duration.ofSeconds(30), Duration.ofHours(1));
  }

  @Override
  public AuthorityLimits limits() {
    return limits;
  }

  /** The most appends {@link #appendInOrder} keeps in flight at once. */
  public int appendsInFlight() {
    return pipeline.maxInFlight();
  }

  /** What the authority said about itself at the last {@link #refreshInfo()}, if it could say. */
  public Optional<ServerInfo> info() {
    return info;
  }

  /**
   * Asks the authority for its version and limits (GetServerInfo); requests are sized by them from
   * now on, and messages up to its largest response are accepted. An authority that predates the
   * call keeps the limits known so far, and the answer is empty.
   *
   * @throws AuthorityException if the call fails (not retryable when the authority refuses it)
   */
  public Optional<ServerInfo> refreshInfo() {
    GetServerInfoResponse response;
    try {
      response = stub().getServerInfo(GetServerInfoRequest.newBuilder().setRequestId(RequestIds.next()).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        info = Optional.empty();
        return info;
      }
      throw translate(e, "asking the authority for its limits");
    }
    AuthorityLimits stated;
    try {
      stated = new AuthorityLimits(response.getMaxMessageBytes(), response.getBlocksPerAppend(),
          response.getBlockBytes(), response.getQueryLimit());
    } catch (InvalidValueException e) {
      throw new AuthorityException("the authority stated limits that cannot work: " + e.getMessage(), false,
          new StatusRuntimeException(Status.FAILED_PRECONDITION.withDescription(e.getMessage())));
    }
    limits = stated;
    inboundBytes = (int) Math.min(MAX_INBOUND_BYTES, Math.max(FALLBACK_INBOUND_BYTES, response.getMaxResponseBytes()));
    info = Optional.of(new ServerInfo(response.getVersion(), stated.maxMessageBytes(), stated.blocksPerAppend(),
        stated.blockBytes(), stated.queryLimit(), response.getMaxResponseBytes()));
    return info;
  }

  @Override
  public AppendReply append(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
    AppendResponse response;
    try {
      response = stub().append(appendRequest(spaceId, namespace, blocks));
    } catch (StatusRuntimeException e) {
      throw appendFailure(e, spaceId, blocks);
    }
    return reply(response);
  }

  /**
   * Keeps the appends in flight together on one stream ({@link AppendPipeline}, at most {@code
   * appendsInFlight} at once), one at a time when there is one, or when the authority predates
   * {@code AppendStream}. An append aborted after an earlier refusal of its feeds is an {@link
   * AppendAbortedException}; the others fail as {@link #append} would.
   */
  @Override
  public List<AppendOutcome> appendInOrder(SpaceId spaceId, List<AppendCall> calls) {
    if (calls.size() < 2 || !streams) {
      return Authority.super.appendInOrder(spaceId, calls);
    }
    pipeline.restart(); // the caller handled the outcomes of the calls before these
    List<CompletableFuture<AppendResponse>> answers = new ArrayList<>(calls.size());
    for (AppendCall call : calls) {
      answers.add(pipeline.send(appendRequest(spaceId, call.namespace(), call.blocks())));
    }
    List<AppendOutcome> outcomes = new ArrayList<>(calls.size());
    for (int i = 0; i < calls.size(); i++) {
      List<Block> blocks = calls.get(i).blocks();
      try {
        outcomes.add(AppendOutcome.replied(reply(pipeline.await(answers.get(i)))));
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED && i == 0) {
          streams = false; // nothing was appended: the authority has no AppendStream
          answers.forEach(answer -> answer.exceptionally(unused -> null).join());
          return Authority.super.appendInOrder(spaceId, calls);
        }
        outcomes.add(AppendOutcome.failed(aborted(e, "append to " + spaceId).map(AuthorityException.class::cast)
            .orElseGet(() -> appendFailure(e, spaceId, blocks))));
      }
    }
    return outcomes;
  }

  /**
   * An append of an {@code AppendStream} aborted after an earlier refusal of its feeds ({@code
   * ABORTED}), or empty for another failure.
   */
  public static Optional<AppendAbortedException> aborted(StatusRuntimeException e, String call) {
    return e.getStatus().getCode() == Status.Code.ABORTED
        ? Optional.of(new AppendAbortedException(call + " failed: " + describe(e.getStatus()), e))
        : Optional.empty();
  }

  /** The Append of {@code blocks}, without their positions. */
  public static AppendRequest appendRequest(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
    AppendRequest.Builder request = AppendRequest.newBuilder()
        .setRequestId(RequestIds.next())
        .setSpaceId(spaceId.value());
    namespace.ifPresent(ns -> request.setNamespace(ns.value()));
    blocks.forEach(b -> request.addBlocks(WireMapping.toWire(b.withoutPosition())));
    return request.build();
  }

  public static AppendReply reply(AppendResponse response) {
    List<Position> positions = new ArrayList<>(response.getPositionsCount());
    response.getPositionsList().forEach(p -> positions.add(Position.of(p)));
    ServerToken token = new ServerToken(response.getServerToken());
    if (response.getReceivedAtCount() != positions.size()) {
      return new AppendReply(positions, token); // an authority from before receive times in answers
    }
    List<java.util.OptionalLong> receivedAt = new ArrayList<>(positions.size());
    response.getReceivedAtList().forEach(t -> receivedAt.add(t < 0 ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(t)));
    return new AppendReply(positions, receivedAt, token);
  }

  /** An append's failure: over a limit (which lowers the limits known here), or as {@link #translate} says. */
  AuthorityException appendFailure(StatusRuntimeException e, SpaceId spaceId, List<Block> blocks) {
    String call = "append to " + spaceId;
    Optional<AuthorityLimitException> over = overLimit(e, call, blocks);
    return over.isPresent() ? over.get() : translate(e, call);
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
      request.startTime().ifPresent(query::setStartTime);
      try {
        return WirePages.of(stub().query(query.build()));
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND && scope.subscriptionId().isPresent() && attempt == 0) {
          scopes.forget(request.spaceId(), request.scope());
          continue;
        }
        String call = "query of " + request.spaceId();
        Optional<AuthorityLimitException> over = queryOverLimit(e, call, request.limit());
        throw over.isPresent() ? over.get() : translate(e, call);
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
    request.startTime().ifPresent(watch::setStartTime);
    Runnable onNotFound = () -> scopes.forget(request.spaceId(), request.scope());
    // The handler only queues the event for the session's thread: run it on the transport's thread
    // rather than hop through the channel's executor first.
    return WatchStream.open(async.withExecutor(Runnable::run).withMaxInboundMessageSize(inboundBytes), watch.build(),
        handler, onNotFound);
  }

  /**
   * After a Watch stream ended with {@code status}: true when it ended because an event was larger
   * than this client accepted, which now accepts it (the stream may be opened again at once).
   */
  public boolean acceptsLargerAfter(Status status) {
    return acceptLarger(status);
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
    return blocking.withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS).withMaxInboundMessageSize(inboundBytes);
  }

  /**
   * An append refused as over a limit, with the limits lowered so that the next request made from
   * them is smaller than this one: to the value the authority names, and below what this request
   * had when the value would not shrink it. Empty for any other failure.
   */
  private Optional<AuthorityLimitException> overLimit(StatusRuntimeException e, String call, List<Block> blocks) {
    if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
      return Optional.empty();
    }
    String message = call + " failed: " + describe(e.getStatus());
    Optional<LimitExceeded> stated = limitTrailer(e);
    if (stated.isPresent() && stated.get().getLimit().equals(Limits.Key.BLOCKS_PER_APPEND)) {
      int value = (int) Math.max(1, Math.min(stated.get().getValue(), blocks.size() - 1L));
      limits = limits.withBlocksPerAppend(Math.min(limits.blocksPerAppend(), value));
      return Optional.of(new AuthorityLimitException(message, Limits.Key.BLOCKS_PER_APPEND, stated.get().getValue(), e));
    }
    if (stated.isPresent() && stated.get().getLimit().equals(Limits.Key.BLOCK_BYTES)) {
      int largest = blocks.stream().mapToInt(b -> b.data().size()).max().orElse(1);
      int value = (int) Math.max(1, Math.min(stated.get().getValue(), largest - 1L));
      limits = limits.withBlockBytes(Math.min(limits.blockBytes(), value));
      return Optional.of(new AuthorityLimitException(message, Limits.Key.BLOCK_BYTES, stated.get().getValue(), e));
    }
    Matcher size = MESSAGE_SIZE.matcher(String.valueOf(e.getStatus().getDescription()));
    if (stated.isEmpty() && size.find()) {
      long sent = AuthorityLimits.REQUEST_OVERHEAD_BYTES + blocks.stream().mapToLong(AuthorityLimits::sizeInAppend).sum();
      long value = Math.min(Long.parseLong(size.group(1)), sent - 1);
      limits = limits.withMaxMessageBytes(
          Math.max(AuthorityLimits.MIN_MESSAGE_BYTES, Math.min(limits.maxMessageBytes(), value)));
      return Optional.of(new AuthorityLimitException(message, "max-message-bytes", Long.parseLong(size.group(1)), e));
    }
    return Optional.empty();
  }

  /** A query refused over {@code query-limit}, or whose answer was larger than accepted; empty otherwise. */
  private Optional<AuthorityLimitException> queryOverLimit(StatusRuntimeException e, String call, int asked) {
    if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
      return Optional.empty();
    }
    String message = call + " failed: " + describe(e.getStatus());
    Optional<LimitExceeded> stated = limitTrailer(e);
    if (stated.isPresent() && stated.get().getLimit().equals(Limits.Key.QUERY_LIMIT)) {
      int value = (int) Math.max(1, Math.min(stated.get().getValue(), asked - 1L));
      limits = limits.withQueryLimit(Math.min(limits.queryLimit(), value));
      return Optional.of(new AuthorityLimitException(message, Limits.Key.QUERY_LIMIT, stated.get().getValue(), e));
    }
    if (stated.isEmpty() && acceptLarger(e.getStatus())) {
      return Optional.of(new AuthorityLimitException(message, "inbound message size", inboundBytes, e));
    }
    return Optional.empty();
  }

  /**
   * A response refused by this client as larger than it accepted (a query or watch answers only with
   * small requests, so gRPC's size refusal is about the response): accept it from now on. False if
   * the status is not that, or the size is beyond {@link #MAX_INBOUND_BYTES}.
   */
  private boolean acceptLarger(Status status) {
    if (status.getCode() != Status.Code.RESOURCE_EXHAUSTED || status.getDescription() == null) {
      return false;
    }
    Matcher size = MESSAGE_SIZE.matcher(status.getDescription());
    if (!size.find() || size.group(2) == null) {
      return false;
    }
    long needed = Long.parseLong(size.group(2));
    if (needed <= inboundBytes || needed > MAX_INBOUND_BYTES) {
      return false;
    }
    inboundBytes = (int) needed;
    return true;
  }

  private static Optional<LimitExceeded> limitTrailer(StatusRuntimeException e) {
    Metadata trailers = e.getTrailers();
    return Optional.ofNullable(trailers == null ? null : trailers.get(WireErrors.LIMIT_EXCEEDED));
  }

  private static String describe(Status status) {
    return status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
  }

  /** The authority's failure as an {@link AuthorityException}. */
  public static AuthorityException translate(StatusRuntimeException e, String call) {
    Status status = e.getStatus();
    String message = call + " failed: " + describe(status);
    if (status.getCode() == Status.Code.ALREADY_EXISTS) {
      Metadata trailers = e.getTrailers();
      AppendConflict conflict = trailers == null ? null : trailers.get(WireErrors.APPEND_CONFLICT);
      List<BlockKey> keys = new ArrayList<>();
      if (conflict != null) {
        for (int i = 0; i < conflict.getKeysCount(); i++) {
          keys.add(WireMapping.toDomain(conflict.getKeys(i), "keys[" + i + "]"));
        }
      }
      return new SequenceConflictException(keys, message, e);
    }
    if (status.getCode() == Status.Code.FAILED_PRECONDITION) {
      OptionalLong floor = WireErrors.compactedFloor(e);
      if (floor.isPresent() && floor.getAsLong() > 0) {
        return new CompactedHistoryException(message, Position.of(floor.getAsLong()), e);
      }
      Set<FeedId> closed = closedFeeds(e);
      if (!closed.isEmpty()) {
        return new ClosedFeedsException(closed, WireErrors.STREAM_CLOSED + ": " + message, e);
      }
    }
    return new AuthorityException(message, isOutage(status), e);
  }

  /** The feeds a {@code STREAM_CLOSED} refusal names (those that are feed ids), none for another failure. */
  private static Set<FeedId> closedFeeds(StatusRuntimeException e) {
    Set<FeedId> feeds = new LinkedHashSet<>();
    for (String id : WireErrors.closedFeeds(e).orElse(List.of())) {
      try {
        feeds.add(FeedId.of(id));
      } catch (InvalidValueException notAFeed) {
        // an id this client cannot hold: nothing of its own to leave out
      }
    }
    return feeds;
  }

  /**
   * Whether a failure with {@code status} is an outage (unreachable, shutting down, a deadline, the
   * authority's own failure, a connection closed for pinging too often), worth retrying soon; the
   * other failures are refusals of the request.
   */
  public static boolean isOutage(Status status) {
    return switch (status.getCode()) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED, UNKNOWN, INTERNAL, NOT_FOUND, DATA_LOSS -> true;
      case RESOURCE_EXHAUSTED -> isTooManyPings(status);
      default -> false;
    };
  }

  /**
   * A connection the authority closed because the client pinged more often than it permits (HTTP/2
   * GOAWAY {@code ENHANCE_YOUR_CALM}, which gRPC reports as {@code RESOURCE_EXHAUSTED}): gRPC pings
   * less often from then on, and the call may be made again at once.
   */
  static boolean isTooManyPings(Status status) {
    return String.valueOf(status.getDescription()).contains("too_many_pings");
  }
}
