package dev.feedstore.client;

import dev.feedstore.client.internal.ConsumerLoop;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.time.Duration;
import java.util.Optional;

/**
 * A running consumer of a durable subscription, made by {@link DurableConsumers#consume}: it hands
 * the blocks of the subscription's scope to its {@link DeliveryHandler} in position order, at least
 * once each and none skipped, on a thread of its own, and acknowledges them on the authority, which
 * keeps the position, so that a consumer started again with the same name resumes after it. It runs
 * until {@link #close()}, or until it meets what needs the application's decision ({@link
 * ConsumerEvent.End}); an outage only makes it reconnect. Thread-safe.
 */
public final class DurableConsumer implements AutoCloseable {
  /** How long {@link #close()} waits for a handler call under way. */
  public static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  private final ConsumerLoop loop;
  private final SpaceId space;
  private final String name;
  private final Thread thread;

  DurableConsumer(ConsumerLoop loop, SpaceId space, String name) {
    this.loop = loop;
    this.space = space;
    this.name = name;
    this.thread = new Thread(loop, "feedstore-consumer-" + space.value() + "/" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** The space this consumer reads. */
  public SpaceId space() {
    return space;
  }

  /** The durable subscription's name. */
  public String name() {
    return name;
  }

  /** The durable subscription's id, once the consumer found or made it. */
  public Optional<String> subscriptionId() {
    return loop.subscriptionId();
  }

  /** The acknowledged position as the authority last confirmed it. */
  public Position acknowledged() {
    return loop.acknowledged();
  }

  /** Blocks received and not acknowledged yet (at most {@link DurableConsumers.Builder#maxBlocksInFlight} and one batch). */
  public int inFlight() {
    return loop.inFlight();
  }

  /** Why the consumer stopped; empty while it runs. */
  public Optional<ConsumerEvent.End> end() {
    return loop.end();
  }

  /**
   * Waits until the consumer stops, at most {@code timeout}.
   *
   * @return why it stopped; empty if it still runs
   */
  public Optional<ConsumerEvent.End> awaitEnd(Duration timeout) throws InterruptedException {
    return loop.awaitEnd(timeout);
  }

  /** Waits until the consumer stops (a service's main thread can wait here); returns why. */
  public ConsumerEvent.End awaitEnd() throws InterruptedException {
    Optional<ConsumerEvent.End> end;
    do {
      end = loop.awaitEnd(Duration.ofDays(1));
    } while (end.isEmpty());
    return end.get();
  }

  /**
   * Stops the consumer: no new batch is handed over; the acknowledgements asked for so far are sent;
   * its last event is {@link ConsumerEvent.Closed} unless it had stopped already. Waits up to {@link
   * #CLOSE_WAIT} for a handler call under way to return, unless called from the handler itself
   * (which may close its own consumer). Idempotent. The channel is not closed: its {@link
   * DurableConsumers} owns it.
   */
  @Override
  public void close() {
    loop.stop();
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      thread.join(CLOSE_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "DurableConsumer[" + space.value() + "/" + name + ", acknowledged " + acknowledged()
        + end().map(e -> ", stopped: " + e).orElse("") + "]";
  }
}
