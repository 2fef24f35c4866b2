package dev.feedstore.client.internal;

import dev.feedstore.client.ConsumerEvent;
import dev.feedstore.client.DeliveryHandler;
import dev.feedstore.client.StartPoint;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import dev.feedstore.proto.v1.BlockBatch;
import dev.feedstore.proto.v1.WatchEvent;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One durable consumer, run on a thread of its own: it finds its durable subscription by name (or
 * makes it), opens a Watch from the acknowledged position the authority holds, hands each batch to
 * the handler in position order (again, after a pause, when the handler throws, a bounded number of
 * times), acknowledges it, and renews the subscription's deadline on every caught-up and heartbeat
 * event of an idle stream. After an outage it waits (exponential backoff with jitter) and opens a
 * new stream, again from the acknowledged position: what was delivered and not acknowledged comes
 * again. Expiry, an unknown subscription, compaction, a refusal and a handler out of attempts end it
 * with the matching {@link ConsumerEvent.End}.
 *
 * <p>The transport's threads only queue what arrives and ask for the next event while fewer than
 * the in-flight bound are unacknowledged ({@link InFlight}); other threads only queue
 * acknowledgements and {@link #stop}. Everything else belongs to the loop's thread; the volatile
 * fields are read by others.
 */
public final class ConsumerLoop implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(ConsumerLoop.class);

  private sealed interface Signal permits Received, Ended, Acknowledge, Stop {}

  private record Received(WatchStream stream, WatchEvent event) implements Signal {}

  private record Ended(WatchStream stream, Status status, StatusRuntimeException failure) implements Signal {}

  /** An acknowledgement the application asked for, of a batch of the stream numbered {@code stream}. */
  private record Acknowledge(long stream, Position upTo) implements Signal {}

  private record Stop() implements Signal {}

  private final DurableCalls calls;
  private final ConsumerSettings settings;
  private final SpaceId space;
  private final Scope.Selection scope;
  private final String name;
  private final Optional<StartPoint> start;
  private final DeliveryHandler handler;
  private final Runnable onEnd;
  private final FailureLog failures;
  private final Random random = new Random();
  private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
  /** What a pause (backoff) waits on, so that {@link #stop} cuts it short. */
  private final Object pauses = new Object();
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile boolean stopping;
  private volatile ConsumerEvent.End end;
  private volatile String subscriptionId;
  /** Whether the subscription was found or made and the start point applied (once per consumer). */
  private boolean started;
  private volatile Position acknowledged = Position.NONE;
  private volatile InFlight inFlight;
  /** The number of the stream open now (or last): acknowledgements of batches of earlier ones are dropped. */
  private long streams;
  /** The loop's thread, once it runs. */
  private volatile Thread thread;
  /**
   * The highest acknowledgement a handler asked for during its call, sent as soon as it returns:
   * before the events that arrived meanwhile, which would otherwise see it queued behind them.
   */
  private Position askedInCall = Position.NONE;
  /** The last position the open stream delivered, or the acknowledged position it started from. */
  private Position lastReceived = Position.NONE;

  /**
   * @param start where to start when the application chose (an expired subscription is then
   *     replaced); empty: resume, and end with {@link ConsumerEvent.Expired} if it expired
   * @param onEnd run once the consumer has ended, on its thread
   */
  public ConsumerLoop(DurableCalls calls, ConsumerSettings settings, SpaceId space, Scope.Selection scope, String name,
      Optional<StartPoint> start, DeliveryHandler handler, Runnable onEnd) {
    this.calls = calls;
    this.settings = settings;
    this.space = space;
    this.scope = scope;
    this.name = name;
    this.start = start;
    this.handler = handler;
    this.onEnd = onEnd;
    this.failures = new FailureLog(log, "durable consumer '" + name + "' of " + space.value());
  }

  /** Asks the loop to end: it returns after the handler call under way, if any. Idempotent. */
  public void stop() {
    stopping = true;
    synchronized (pauses) {
      pauses.notifyAll();
    }
    signals.add(new Stop());
  }

  /** Why it ended; empty while it runs. */
  public Optional<ConsumerEvent.End> end() {
    return Optional.ofNullable(end);
  }

  /** Waits until it ended; empty if {@code timeout} passed first. */
  public Optional<ConsumerEvent.End> awaitEnd(Duration timeout) throws InterruptedException {
    ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    return end();
  }

  /** The subscription's id, once found or made. */
  public Optional<String> subscriptionId() {
    return Optional.ofNullable(subscriptionId);
  }

  /** The acknowledged position as the authority last answered it. */
  public Position acknowledged() {
    return acknowledged;
  }

  /** Blocks received on the open stream and not acknowledged. */
  public int inFlight() {
    InFlight current = inFlight;
    return current == null ? 0 : current.count();
  }

  @Override
  public void run() {
    thread = Thread.currentThread();
    ConsumerEvent.End result = new ConsumerEvent.Closed();
    try {
      result = consume();
    } catch (InterruptedException e) {
      result = new ConsumerEvent.Closed();
    } catch (RuntimeException | Error e) {
      log.error("durable consumer '{}' of {} failed", name, space.value(), e);
      result = new ConsumerEvent.Failed(e);
      if (e instanceof Error error) {
        throw error;
      }
    } finally {
      end = result;
      if (result instanceof ConsumerEvent.Closed) {
        log.debug("durable consumer '{}' of {} closed", name, space.value());
      } else {
        log.warn("durable consumer '{}' of {} stopped: {}", name, space.value(), result);
      }
      tell(result);
      ended.countDown();
      onEnd.run();
    }
  }

  private ConsumerEvent.End consume() throws InterruptedException {
    Backoff reconnects = new Backoff(settings.reconnectBackoffInitial(), settings.reconnectBackoffMax(), random);
    while (!stopping) {
      try {
        if (!started) {
          Optional<ConsumerEvent.End> over = subscribe();
          if (over.isPresent()) {
            return over.get();
          }
        }
        return follow(reconnects);
      } catch (ConsumerCallFailure e) {
        if (e.kind() != ConsumerCallFailure.Kind.OUTAGE) {
          return endOf(e);
        }
        Duration delay = reconnects.next();
        failures.failed("durable consumer '" + name + "' of " + space.value() + " lost the authority", e, false);
        tell(new ConsumerEvent.Reconnecting(e.getMessage(), delay, e.getCause()));
        calls.resetConnectBackoff();
        pause(delay);
      }
    }
    return new ConsumerEvent.Closed();
  }

  /**
   * Finds the subscription by name, or makes it; applies the start point the application chose.
   *
   * @return the end when the subscription expired and the application chose no start point
   */
  private Optional<ConsumerEvent.End> subscribe() {
    DurableCalls.Listing listing = calls.list(space);
    Optional<DurableCalls.Listed> named = listing.named(name);
    if (named.isPresent() && named.get().expired() && start.isEmpty()) {
      return Optional.of(new ConsumerEvent.Expired(named.get().id(), named.get().acknowledged()));
    }
    DurableCalls.Subscribed subscribed = calls.subscribe(space, scope, name, settings.ackWithin());
    Position at = subscribed.acknowledged();
    if (subscribed.created() && named.isPresent() && !named.get().expired() && start.isEmpty()) {
      // It expired between the listing and Subscribe, which replaced it. The new one is set where the
      // old one stood, so that a later run resumes there (and meets any compaction since), and the
      // expiry is told.
      calls.ack(space, subscribed.id(), named.get().acknowledged());
      return Optional.of(new ConsumerEvent.Expired(named.get().id(), named.get().acknowledged()));
    }
    subscriptionId = subscribed.id();
    Position from = start.map(point -> point instanceof StartPoint.After after ? after.position()
        : point instanceof StartPoint.Latest ? listing.highest() : Position.NONE).orElse(Position.NONE);
    if (from.isAfter(at)) {
      at = calls.ack(space, subscribed.id(), from);
    }
    acknowledged = at;
    started = true;
    log.info("durable consumer '{}' of {}: {} subscription {}, delivering after position {}", name, space.value(),
        subscribed.created() ? "made" : "found", subscribed.id(), at);
    tell(new ConsumerEvent.Started(subscribed.id(), subscribed.created(), at));
    return Optional.empty();
  }

  /**
   * Opens a stream from the acknowledged position and handles what it sends until it ends.
   *
   * @return the end, when the consumer ends while following
   * @throws ConsumerCallFailure when the stream or a call fails
   */
  private ConsumerEvent.End follow(Backoff reconnects) throws InterruptedException {
    long stream = ++streams;
    InFlight flow = new InFlight(settings.maxBlocksInFlight());
    inFlight = flow;
    lastReceived = acknowledged;
    askedInCall = Position.NONE;
    WatchStream opened = calls.watchFromAck(space, subscriptionId, new WatchStream.Handler() {
      @Override
      public void onEvent(WatchStream source, WatchEvent event) {
        signals.add(new Received(source, event));
        if (flow.received(positions(event))) {
          source.requestNext();
        }
      }

      @Override
      public void onClose(WatchStream source, Status status, StatusRuntimeException failure) {
        signals.add(new Ended(source, status, failure));
      }
    });
    boolean first = true;
    try {
      while (true) {
        Signal signal = signals.take();
        if (stopping || signal instanceof Stop) {
          signals.add(signal); // an acknowledgement taken here is sent by close
          return close(stream, flow);
        }
        if (signal instanceof Received received && received.stream() == opened) {
          if (first) {
            first = false;
            reconnects.reset();
            failures.recovered();
          }
          Optional<ConsumerEvent.End> over = handle(received.event(), stream, opened, flow);
          if (over.isPresent()) {
            return over.get();
          }
        } else if (signal instanceof Ended closed && closed.stream() == opened) {
          throw ConsumerCallFailure.of("the Watch of '" + name + "' in " + space.value(), closed.status(),
              closed.failure());
        } else if (signal instanceof Acknowledge acknowledge && acknowledge.stream() == stream) {
          acknowledge(acknowledge.upTo(), opened, flow);
        }
      }
    } finally {
      opened.cancel();
    }
  }

  private Optional<ConsumerEvent.End> handle(WatchEvent event, long stream, WatchStream opened, InFlight flow)
      throws InterruptedException {
    switch (event.getEventCase()) {
      case BLOCKS -> {
        return deliver(event.getBlocks(), stream, opened, flow);
      }
      case CAUGHT_UP -> {
        renew();
        tell(new ConsumerEvent.CaughtUp(Position.of(event.getMaxPosition())));
      }
      case HEARTBEAT -> {
        renew();
        tell(new ConsumerEvent.Heartbeat(Position.of(event.getMaxPosition())));
      }
      default -> { }
    }
    return Optional.empty();
  }

  /**
   * Hands a batch to the handler until it returns, at most {@code handlerAttempts} times, then
   * acknowledges it unless the application does.
   */
  private Optional<ConsumerEvent.End> deliver(BlockBatch batch, long stream, WatchStream opened, InFlight flow)
      throws InterruptedException {
    List<Block> blocks = WireMapping.toDomain(batch.getBlocksList());
    if (blocks.isEmpty()) {
      return Optional.empty();
    }
    lastReceived = blocks.get(blocks.size() - 1).position();
    Map<FeedId, Namespace> namespaces = WirePages.namespaces(batch.getFeedNamespacesMap());
    Backoff retries = new Backoff(settings.handlerBackoffInitial(), settings.handlerBackoffMax(), random);
    for (int attempt = 1; ; attempt++) {
      if (stopping) {
        return Optional.of(close(stream, flow));
      }
      DeliveredBatch delivery = new DeliveredBatch(space, blocks, namespaces, attempt, upTo -> asked(stream, upTo));
      Exception failed = null;
      try {
        handler.handle(delivery);
      } catch (Exception e) {
        failed = e;
      }
      if (askedInCall.isAfter(acknowledged)) {
        acknowledge(askedInCall, opened, flow);
      }
      if (failed == null) {
        break;
      }
      if (attempt >= settings.handlerAttempts()) {
        return Optional.of(new ConsumerEvent.HandlerFailed(delivery.first(), delivery.last(), attempt, failed));
      }
      Duration delay = retries.next();
      log.info("durable consumer '{}' of {}: the handler failed on {} (attempt {} of {}), trying again in {} ms: {}",
          name, space.value(), delivery, attempt, settings.handlerAttempts(), delay.toMillis(), failed.toString());
      pause(delay);
    }
    if (!settings.manualAcknowledgement()) {
      acknowledge(blocks.get(blocks.size() - 1).position(), opened, flow);
    }
    return Optional.empty();
  }

  /**
   * The application asked to acknowledge up to {@code upTo} a batch of stream {@code stream}: noted
   * for sending when the handler returns if asked from its call, queued otherwise.
   */
  private void asked(long stream, Position upTo) {
    if (Thread.currentThread() == thread) {
      askedInCall = upTo.isAfter(askedInCall) ? upTo : askedInCall;
    } else {
      signals.add(new Acknowledge(stream, upTo));
    }
  }

  /** Acknowledges up to {@code upTo} unless the authority holds that already, and lets the stream send more. */
  private void acknowledge(Position upTo, WatchStream opened, InFlight flow) {
    if (upTo.isAfter(acknowledged)) {
      Position now = calls.ack(space, subscriptionId, upTo);
      acknowledged = now.isAfter(acknowledged) ? now : acknowledged;
    }
    if (flow.acknowledged(acknowledged.value())) {
      opened.requestNext();
    }
  }

  /** Restarts the subscription's deadline: an Ack of what is acknowledged already. */
  private void renew() {
    Position now = calls.ack(space, subscriptionId, acknowledged);
    acknowledged = now.isAfter(acknowledged) ? now : acknowledged;
  }

  /** Ends a stream on {@link #stop}: sends the acknowledgements the application asked for before it. */
  private ConsumerEvent.End close(long stream, InFlight flow) {
    Position upTo = askedInCall.isAfter(acknowledged) ? askedInCall : acknowledged;
    List<Signal> left = new ArrayList<>();
    signals.drainTo(left);
    for (Signal signal : left) {
      if (signal instanceof Acknowledge acknowledge && acknowledge.stream() == stream
          && acknowledge.upTo().isAfter(upTo)) {
        upTo = acknowledge.upTo();
      }
    }
    if (upTo.isAfter(acknowledged)) {
      try {
        acknowledged = calls.ack(space, subscriptionId, upTo);
        flow.acknowledged(acknowledged.value());
      } catch (ConsumerCallFailure e) {
        log.warn("durable consumer '{}' of {}: the acknowledgement up to {} was not sent on closing ({}); those"
            + " blocks will be delivered again", name, space.value(), upTo, e.getMessage());
      }
    }
    return new ConsumerEvent.Closed();
  }

  private ConsumerEvent.End endOf(ConsumerCallFailure failure) {
    String id = subscriptionId;
    return switch (failure.kind()) {
      case EXPIRED -> new ConsumerEvent.Expired(id, acknowledged);
      case UNKNOWN -> new ConsumerEvent.Unknown(id, acknowledged);
      case COMPACTED -> new ConsumerEvent.Compacted(Position.of(failure.floor().orElseThrow()), lastReceived);
      case REFUSED, OUTAGE -> new ConsumerEvent.Refused(failure.status().getCode().name(),
          failure.status().getDescription() == null ? failure.getMessage() : failure.status().getDescription(),
          failure.getCause());
    };
  }

  /** Waits {@code delay}, or less if the loop is asked to stop. */
  private void pause(Duration delay) throws InterruptedException {
    long deadline = System.nanoTime() + delay.toNanos();
    synchronized (pauses) {
      while (!stopping) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        TimeUnit.NANOSECONDS.timedWait(pauses, left);
      }
    }
  }

  private void tell(ConsumerEvent event) {
    try {
      handler.onEvent(event);
    } catch (RuntimeException e) {
      log.warn("durable consumer '{}' of {}: the handler's onEvent({}) threw; ignored", name, space.value(), event, e);
    }
  }

  private static long[] positions(WatchEvent event) {
    if (!event.hasBlocks()) {
      return new long[0];
    }
    BlockBatch batch = event.getBlocks();
    long[] positions = new long[batch.getBlocksCount()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = batch.getBlocks(i).getPosition();
    }
    return positions;
  }
}
