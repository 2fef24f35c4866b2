package dev.feedstore.client;

import dev.feedstore.client.internal.Channels;
import dev.feedstore.client.internal.ConsumerLoop;
import dev.feedstore.client.internal.ConsumerSettings;
import dev.feedstore.client.internal.DurableCalls;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Durable consumers of one position authority: each {@link #consume} runs a {@link
 * DurableConsumer} over a durable subscription of the authority, so that a service processes every
 * block of a scope at least once, resuming after its last acknowledgement when it starts again.
 *
 * <pre>{@code
 * try (DurableConsumers consumers = DurableConsumers.newBuilder("127.0.0.1:7070", ConnectOptions.DEFAULTS).build()) {
 *   DurableConsumer indexer = consumers.consume(SpaceId.of("shop"), Scope.namespace(Namespace.of("orders")),
 *       "indexer", delivery -> index(delivery.blocks()));     // acknowledged once it returns
 *   System.out.println("stopped: " + indexer.awaitEnd());     // closed, expired, compacted, refused, failed
 * }
 * }</pre>
 *
 * <p>Built from a target, it makes its channel ({@link ConnectOptions}: TLS, token, keepalive) and
 * shuts it down on {@link #close()}; built over a channel of the caller's ({@link
 * dev.feedstore.client.grpc.AuthorityChannel#consumers}), the channel stays the caller's. {@link
 * #close()} also closes every consumer it started. Every consumer has a thread of its own.
 * Thread-safe.
 */
public final class DurableConsumers implements AutoCloseable {
  /** 1,000 blocks received and not acknowledged: ten Watch batches at the authority's default size. */
  public static final int DEFAULT_MAX_BLOCKS_IN_FLIGHT = 1000;
  /** A batch is handed to a handler that throws five times in all before the consumer stops. */
  public static final int DEFAULT_HANDLER_ATTEMPTS = 5;
  /** The first wait before a handler that threw is given its batch again: 100 ms. */
  public static final Duration DEFAULT_HANDLER_BACKOFF_INITIAL = Duration.ofMillis(100);
  /** The longest wait between a handler's attempts: 10 s. */
  public static final Duration DEFAULT_HANDLER_BACKOFF_MAX = Duration.ofSeconds(10);

  private final DurableCalls calls;
  private final ConsumerSettings settings;
  private final Runnable shutdown;
  private final Set<DurableConsumer> running = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private DurableConsumers(Builder builder, Channel channel, Runnable shutdown) {
    this.calls = new DurableCalls(channel, builder.callDeadline);
    this.settings = new ConsumerSettings(builder.ackWithin, builder.maxBlocksInFlight, builder.handlerAttempts,
        builder.handlerBackoffInitial, builder.handlerBackoffMax, builder.reconnectBackoffInitial,
        builder.reconnectBackoffMax, builder.manualAcknowledgement);
    this.shutdown = shutdown;
  }

  /**
   * Consumers of the authority at {@code target} ({@code host:port}, or any gRPC target name), over
   * a channel {@link Builder#build()} makes as {@code options} say and {@link #close()} shuts down.
   */
  public static Builder newBuilder(String target, ConnectOptions options) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(options, "options");
    return new Builder(() -> Channels.build(target, options));
  }

  /**
   * Consumers of an authority served by several processes ({@code host:port} each), as {@link
   * Replica#connect(List, ConnectOptions)} reaches them: one picked at random, another when it fails.
   */
  public static Builder newBuilder(List<String> targets, ConnectOptions options) {
    Objects.requireNonNull(targets, "targets");
    Objects.requireNonNull(options, "options");
    List<String> copy = List.copyOf(targets);
    return new Builder(() -> Channels.build(copy, options));
  }

  /** Consumers of the authority behind {@code channel}, which stays the caller's to shut down. */
  static Builder newBuilder(Channel channel) {
    Objects.requireNonNull(channel, "channel");
    return new Builder(channel);
  }

  /**
   * Starts consuming the durable subscription {@code name} of {@code space}: the live one of that
   * name, resumed after its acknowledged position, or, when there is none, a new one of {@code
   * scope}, from the oldest block the authority holds in it. One that expired is not replaced: the
   * consumer stops with {@link ConsumerEvent.Expired} and the application chooses where to start
   * again ({@link #consume(SpaceId, Scope, String, StartPoint, DeliveryHandler)}).
   *
   * <p>The name is the application's (1-128 printable ASCII characters, unique in the space; the
   * authority checks it: a bad one, or one used with another scope, stops the consumer with {@link
   * ConsumerEvent.Refused}). Two consumers of one name share its acknowledged position.
   *
   * @param scope feeds or namespaces of the space (a durable subscription covers a selection, not the
   *     whole space)
   * @throws IllegalArgumentException if the scope is the whole space or empty
   * @throws IllegalStateException if these consumers are closed
   */
  public DurableConsumer consume(SpaceId space, Scope scope, String name, DeliveryHandler handler) {
    return start(space, scope, name, Optional.empty(), handler);
  }

  /**
   * As {@link #consume(SpaceId, Scope, String, DeliveryHandler)}, starting where the application
   * chose: after the later of the subscription's acknowledged position and {@code from}; a
   * subscription of that name that expired is replaced by a new one.
   */
  public DurableConsumer consume(SpaceId space, Scope scope, String name, StartPoint from, DeliveryHandler handler) {
    return start(space, scope, name, Optional.of(Objects.requireNonNull(from, "from")), handler);
  }

  private DurableConsumer start(SpaceId space, Scope scope, String name, Optional<StartPoint> from,
      DeliveryHandler handler) {
    Objects.requireNonNull(space, "space");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(handler, "handler");
    Scope.Selection selection = durableScope(Objects.requireNonNull(scope, "scope"));
    AtomicReference<DurableConsumer> made = new AtomicReference<>();
    ConsumerLoop loop = new ConsumerLoop(calls, settings, space, selection, name, from, handler,
        () -> running.remove(made.get()));
    DurableConsumer consumer = new DurableConsumer(loop, space, name);
    made.set(consumer);
    synchronized (running) {
      if (closed) {
        throw new IllegalStateException("these durable consumers are closed; build new ones");
      }
      running.add(consumer);
    }
    consumer.start();
    return consumer;
  }

  private static Scope.Selection durableScope(Scope scope) {
    if (!(scope instanceof Scope.Selection selection) || selection.isEmpty()) {
      throw new IllegalArgumentException("scope must name feeds or namespaces of the space (a durable subscription"
          + " covers a selection, not the whole space), was " + scope);
    }
    return selection;
  }

  /**
   * Closes every consumer started here (each waits up to {@link DurableConsumer#CLOSE_WAIT} for its
   * handler), then shuts down the channel if these consumers made it. Idempotent.
   */
  @Override
  public void close() {
    synchronized (running) {
      closed = true;
    }
    for (DurableConsumer consumer : List.copyOf(running)) {
      consumer.close();
    }
    shutdown.run();
  }

  /**
   * Settings of durable consumers; every one has a default. {@link #build()} makes the channel when
   * given a target. Not thread-safe.
   */
  public static final class Builder {
    private final Supplier<ManagedChannel> channelMaker;
    private final Channel channel;
    private Optional<Duration> ackWithin = Optional.empty();
    private int maxBlocksInFlight = DEFAULT_MAX_BLOCKS_IN_FLIGHT;
    private int handlerAttempts = DEFAULT_HANDLER_ATTEMPTS;
    private Duration handlerBackoffInitial = DEFAULT_HANDLER_BACKOFF_INITIAL;
    private Duration handlerBackoffMax = DEFAULT_HANDLER_BACKOFF_MAX;
    private Duration reconnectBackoffInitial = SyncSession.Options.DEFAULTS.backoffInitial();
    private Duration reconnectBackoffMax = SyncSession.Options.DEFAULTS.backoffMax();
    private Duration callDeadline = SyncSession.Options.DEFAULTS.callDeadline();
    private boolean manualAcknowledgement;

    private Builder(Supplier<ManagedChannel> channelMaker) {
      this.channelMaker = channelMaker;
      this.channel = null;
    }

    private Builder(Channel channel) {
      this.channelMaker = null;
      this.channel = channel;
    }

    /**
     * The deadline asked for when a consumer makes its subscription (Subscribe's {@code
     * ack_within_ms}): a subscription not acknowledged for that long expires and stops holding
     * history. Default: the authority's ({@code --subscription-ttl-ms}, one hour unless set). A
     * subscription keeps the deadline it was made with. The consumer acknowledges after every batch
     * and on every heartbeat of an idle stream (every {@code --heartbeat-ms} of the authority, 15 s
     * by default), so the deadline must be longer than that, and longer than a handler call with
     * its retries.
     *
     * @throws IllegalArgumentException if it is under a millisecond
     */
    public Builder ackWithin(Duration value) {
      if (value.toMillis() < 1) {
        throw new IllegalArgumentException("ackWithin must be at least 1 ms, was " + value);
      }
      ackWithin = Optional.of(value);
      return this;
    }

    /**
     * How many blocks a consumer may hold received and not acknowledged (default {@value
     * #DEFAULT_MAX_BLOCKS_IN_FLIGHT}): it asks for the next batch only while it holds fewer, so it
     * holds at most this less one plus one batch of the authority (at most {@code
     * --watch-batch-blocks}, 100 by default). With manual acknowledgement, delivery waits here until
     * the application acknowledges.
     *
     * @throws IllegalArgumentException if it is under 1
     */
    public Builder maxBlocksInFlight(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("maxBlocksInFlight must be >= 1, was " + value);
      }
      maxBlocksInFlight = value;
      return this;
    }

    /**
     * How many times in all a batch is handed to a handler that throws (default {@value
     * #DEFAULT_HANDLER_ATTEMPTS}) before the consumer stops with {@link ConsumerEvent.HandlerFailed}.
     *
     * @throws IllegalArgumentException if it is under 1
     */
    public Builder handlerAttempts(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("handlerAttempts must be >= 1, was " + value);
      }
      handlerAttempts = value;
      return this;
    }

    /**
     * The pause before a batch is handed again to a handler that threw: the first drawn from
     * {@code [initial/2, initial]}, doubling to at most {@code max} (defaults 100 ms and 10 s).
     *
     * @throws IllegalArgumentException unless {@code 0 < initial <= max}
     */
    public Builder handlerBackoff(Duration initial, Duration max) {
      checkBackoff("handlerBackoff", initial, max);
      handlerBackoffInitial = initial;
      handlerBackoffMax = max;
      return this;
    }

    /**
     * The pause before reconnecting after an outage, as {@link #handlerBackoff} grows (defaults
     * those of a replica's session: 200 ms and 30 s); it starts again from {@code initial} once a
     * stream delivers.
     *
     * @throws IllegalArgumentException unless {@code 0 < initial <= max}
     */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      checkBackoff("reconnectBackoff", initial, max);
      reconnectBackoffInitial = initial;
      reconnectBackoffMax = max;
      return this;
    }

    /**
     * The deadline of each call other than the stream (default 30 s).
     *
     * @throws IllegalArgumentException if it is under a millisecond
     */
    public Builder callDeadline(Duration value) {
      if (value.toMillis() < 1) {
        throw new IllegalArgumentException("callDeadline must be at least 1 ms, was " + value);
      }
      callDeadline = value;
      return this;
    }

    /**
     * The application acknowledges ({@link Delivery#acknowledge()}, from any thread, when it
     * chooses) instead of the consumer after each handler call: for handlers that hand work on.
     */
    public Builder manualAcknowledgement() {
      manualAcknowledgement = true;
      return this;
    }

    /**
     * @throws IllegalArgumentException if the target or the TLS certificates cannot be used
     */
    public DurableConsumers build() {
      if (channel != null) {
        return new DurableConsumers(this, channel, () -> {});
      }
      ManagedChannel made = channelMaker.get();
      return new DurableConsumers(this, made, made::shutdownNow);
    }

    private static void checkBackoff(String setting, Duration initial, Duration max) {
      if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
        throw new IllegalArgumentException(setting + " needs 0 < initial <= max, was " + initial + " and " + max);
      }
    }
  }
}
