package dev.feedstore.client;

import dev.feedstore.client.internal.AppendPipeline;
import dev.feedstore.client.internal.Channels;
import dev.feedstore.client.internal.GrpcAuthority;
import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendAbortedException;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.SequenceConflictException;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Appends blocks to a position authority with several calls in flight on one connection, for a
 * writer that would otherwise wait a round trip per call: {@link #append} returns at once (or once
 * fewer than {@link Builder#maxCallsInFlight} calls are in flight), and its future completes once
 * the authority committed the blocks, in the order the calls were made.
 *
 * <pre>{@code
 * try (Appender appender = Appender.newBuilder("127.0.0.1:7070", ConnectOptions.DEFAULTS).build()) {
 *   List<CompletableFuture<AppendReceipt>> receipts = new ArrayList<>();
 *   for (List<Block> batch : batches) {
 *     receipts.add(appender.append(space, Optional.empty(), batch)); // does not wait for the answer
 *   }
 *   for (CompletableFuture<AppendReceipt> receipt : receipts) {
 *     System.out.println(appender.await(receipt).positions());     // committed, in order
 *   }
 * }
 * }</pre>
 *
 * <p>The authority commits the calls of one feed in the order they were made. When it refuses a
 * call (a sequence conflict, a limit, access), the later calls that name one of its feeds fail as
 * {@link AppendFailedException.Reason#ABORTED} and store nothing, as their blocks may follow the
 * refused ones, until the writer calls {@link #restart}; calls of other feeds go on. The writer
 * handles the refusal, calls {@link #restart}, then makes the aborted calls again (the next call
 * waits for the calls in flight to be answered and goes out on a new stream). Futures fail with an
 * {@link AppendFailedException} saying why; those of a lost connection are {@link
 * AppendFailedException.Reason#UNANSWERED}: they may or may not have been committed (appending the
 * same blocks again is safe: the authority returns the positions of blocks it holds with the same
 * content).
 *
 * <p>{@link #newBuilder(String, ConnectOptions)} makes the connection; a program with a gRPC
 * channel of its own uses {@link dev.feedstore.client.grpc.AuthorityChannel#appender}.
 *
 * <p>Thread-safe: calls made from several threads are in flight together, in the order they took
 * their place; futures complete on gRPC's threads.
 */
public final class Appender implements AutoCloseable {
  /** Calls in flight at once by default: enough to hide a LAN's round trips behind group commit. */
  public static final int DEFAULT_MAX_CALLS_IN_FLIGHT = 32;
  /** How long {@link #await} waits for one answer by default. */
  public static final Duration DEFAULT_CALL_DEADLINE = Duration.ofSeconds(30);

  private final AppendPipeline pipeline;
  private final Runnable shutdown;

  private Appender(Builder builder, Channel channel, Runnable shutdown) {
    this.pipeline = new AppendPipeline(channel, builder.maxCallsInFlight, "maxCallsInFlight", builder.callDeadline);
    this.shutdown = shutdown;
  }

  /**
   * An appender to the authority at {@code target} ({@code host:port}), over a channel {@link
   * Builder#build()} makes as {@code options} say and {@link #close()} shuts down.
   */
  public static Builder newBuilder(String target, ConnectOptions options) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(options, "options");
    return new Builder(() -> Channels.build(target, options), true);
  }

  /** An appender over {@code channel}, which stays the caller's to shut down. */
  static Builder newBuilder(Channel channel) {
    Objects.requireNonNull(channel, "channel");
    return new Builder(() -> channel, false);
  }

  /**
   * Sends the blocks as one Append (all or none), without waiting for the answers of the calls
   * before it; waits first while {@link Builder#maxCallsInFlight} calls are in flight.
   *
   * @param namespace the namespace of the feeds this call creates
   * @return the positions, one per block, once committed; or the call's {@link AppendFailedException}
   * @throws IllegalStateException if the appender is closed, or the thread is interrupted while
   *     waiting for room
   */
  public CompletableFuture<AppendReceipt> append(SpaceId space, Optional<Namespace> namespace, List<Block> blocks) {
    String call = "append to " + space;
    return pipeline.send(GrpcAuthority.appendRequest(space, namespace, blocks)).handle((response, failure) -> {
      if (failure == null) {
        AppendReply reply = GrpcAuthority.reply(response);
        return new AppendReceipt(reply.positions(), reply.receivedAt());
      }
      Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
      throw failed(cause, call);
    });
  }

  /**
   * The receipt of a call made here, waiting at most the call deadline ({@link
   * Builder#callDeadline}); past it the calls in flight are cancelled (they fail as {@link
   * AppendFailedException.Reason#UNANSWERED}, and may or may not have been committed).
   *
   * @throws AppendFailedException the call's failure
   */
  public AppendReceipt await(CompletableFuture<AppendReceipt> receipt) {
    try {
      return pipeline.await(receipt);
    } catch (StatusRuntimeException e) {
      throw failed(e, "waiting for an append's answer");
    }
  }

  /**
   * Says that the refusals told so far are handled: the calls made from now on are not aborted for
   * them (they go out on a new stream once the calls in flight are answered).
   */
  public void restart() {
    pipeline.restart();
  }

  /** Ends the stream once the calls in flight are answered, and shuts down a channel it made. */
  @Override
  public void close() {
    pipeline.close();
    shutdown.run();
  }

  /** A call's failure in the library's words, from the authority's answer or the transport's report. */
  private static AppendFailedException failed(Throwable cause, String call) {
    if (!(cause instanceof StatusRuntimeException status)) {
      return new AppendFailedException(call + " failed: " + cause, AppendFailedException.Reason.UNANSWERED,
          Refusal.Code.UNKNOWN, List.of(), cause);
    }
    Refusal.Code code = Refusal.Code.valueOf(status.getStatus().getCode().name());
    AuthorityException said = GrpcAuthority.aborted(status, call).map(AuthorityException.class::cast)
        .orElseGet(() -> GrpcAuthority.translate(status, call));
    if (said instanceof AppendAbortedException) {
      return new AppendFailedException(said.getMessage(), AppendFailedException.Reason.ABORTED, code, List.of(), status);
    }
    if (said instanceof SequenceConflictException conflict) {
      return new AppendFailedException(said.getMessage(), AppendFailedException.Reason.SEQUENCE_CONFLICT, code,
          conflict.keys(), status);
    }
    AppendFailedException.Reason reason = said.retryable() ? AppendFailedException.Reason.UNANSWERED
        : AppendFailedException.Reason.REFUSED;
    return new AppendFailedException(said.getMessage(), reason, code, List.of(), status);
  }

  /** Collects an appender's options; {@link #build} checks them. Not thread-safe. */
  public static final class Builder {
    private final Supplier<Channel> channel;
    /** Whether the channel is made here, and shut down by {@link #close()}. */
    private final boolean owned;
    private int maxCallsInFlight = DEFAULT_MAX_CALLS_IN_FLIGHT;
    private Duration callDeadline = DEFAULT_CALL_DEADLINE;

    private Builder(Supplier<Channel> channel, boolean owned) {
      this.channel = channel;
      this.owned = owned;
    }

    /**
     * The most calls in flight at once (default {@value #DEFAULT_MAX_CALLS_IN_FLIGHT}); a call beyond
     * them waits for the oldest answer. 1 waits for each answer before the next call.
     *
     * @throws IllegalArgumentException if {@code value} is below 1
     */
    public Builder maxCallsInFlight(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxCallsInFlight must be >= 1, was " + value);
      }
      this.maxCallsInFlight = value;
      return this;
    }

    /** How long {@link #await} waits for one answer (default 30 s). */
    public Builder callDeadline(Duration value) {
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("callDeadline must be > 0, was " + value);
      }
      this.callDeadline = value;
      return this;
    }

    /** The appender as built, over the channel it makes or was given. */
    public Appender build() {
      Channel made = channel.get();
      return new Appender(this, made, owned && made instanceof ManagedChannel managed ? managed::shutdown : () -> { });
    }
  }
}
