package dev.feedstore.cli;

import dev.feedstore.client.ConsumerEvent;
import dev.feedstore.client.Delivery;
import dev.feedstore.client.DeliveryHandler;
import dev.feedstore.core.Block;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.proto.WireMapping;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * What {@code feedctl tail --durable} does with what its durable consumer delivers: prints each
 * block and acknowledges each batch once printed (only up to the {@code count}th block, after which
 * it prints nothing more), prints the consumer's caught-up events, heartbeats when asked and its
 * start and reconnections as remarks, and tells the command when it is done: the count reached, the
 * consumer stopped, or, without {@code reconnect}, the connection lost.
 *
 * <p>Its handler methods run on the consumer's thread, one at a time, and only they print; {@link
 * #awaitDone()} and the accessors after it are for the command's thread.
 */
final class DurableTail implements DeliveryHandler {
  private final Printer printer;
  private final SpaceId space;
  private final String name;
  private final String server;
  private final Optional<Long> count;
  private final boolean heartbeats;
  private final boolean reconnect;
  private final CountDownLatch done = new CountDownLatch(1);
  private long printed;
  private Position acknowledged = Position.NONE;
  private volatile boolean counted;
  private volatile Throwable lost;
  private volatile ConsumerEvent.End end;

  DurableTail(Printer printer, SpaceId space, String name, String server, Optional<Long> count, boolean heartbeats,
      boolean reconnect) {
    this.printer = printer;
    this.space = space;
    this.name = name;
    this.server = server;
    this.count = count;
    this.heartbeats = heartbeats;
    this.reconnect = reconnect;
  }

  @Override
  public void handle(Delivery delivery) {
    if (counted) {
      return; // delivered before the command closed the consumer: neither printed nor acknowledged
    }
    for (Block block : delivery.blocks()) {
      printer.block(space.value(), WireMapping.toWire(block),
          delivery.namespace(block.feedId()).map(Namespace::value));
      if (count.isPresent() && ++printed >= count.get()) {
        acknowledge(delivery, block.position());
        counted = true;
        done.countDown();
        return;
      }
    }
    acknowledge(delivery, delivery.last());
  }

  private void acknowledge(Delivery delivery, Position upTo) {
    delivery.acknowledge(upTo);
    acknowledged = upTo;
  }

  @Override
  public void onEvent(ConsumerEvent event) {
    if (event instanceof ConsumerEvent.Started started) {
      acknowledged = started.acknowledged();
      printer.remark((started.created() ? "created" : "resuming") + " durable subscription '" + name + "' ("
          + started.subscriptionId() + ") of space " + space.value() + " after position " + started.acknowledged()
          + " on " + server);
    } else if (event instanceof ConsumerEvent.CaughtUp caughtUp) {
      printer.caughtUp(caughtUp.highest().value());
    } else if (event instanceof ConsumerEvent.Heartbeat heartbeat) {
      if (heartbeats) {
        printer.heartbeat(heartbeat.highest().value());
      }
    } else if (event instanceof ConsumerEvent.Reconnecting reconnecting) {
      if (reconnect) {
        printer.remark("-- the stream ended (" + reconnecting.reason() + "); reconnecting to resume after position "
            + acknowledged);
      } else {
        lost = reconnecting.cause();
        done.countDown();
      }
    } else if (event instanceof ConsumerEvent.End ended) {
      end = ended;
      done.countDown();
    }
  }

  /** Waits until the count is reached, the consumer stopped, or (without reconnect) the connection was lost. */
  void awaitDone() throws InterruptedException {
    done.await();
  }

  /** Whether it printed the blocks it was to print. */
  boolean counted() {
    return counted;
  }

  /** What the connection failed with, when it was lost and the tail does not reconnect. */
  Optional<Throwable> lost() {
    return Optional.ofNullable(lost);
  }

  /** Why the consumer stopped, if it stopped by itself. */
  Optional<ConsumerEvent.End> end() {
    return Optional.ofNullable(end);
  }
}
