package dev.feedstore.client.testing;

import dev.feedstore.client.ConsumerEvent;
import dev.feedstore.client.Delivery;
import dev.feedstore.client.DeliveryHandler;
import dev.feedstore.core.Block;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A durable consumer's handler that records every delivery it is handed and every event it is
 * told, and does on each delivery what the test says (wait at a {@link Gate}, throw). Thread-safe.
 */
public final class ConsumerRecorder implements DeliveryHandler {
  /** What the handler does with a delivery after recording it; what it throws, the handler throws. */
  public interface Behaviour {
    void on(Delivery delivery) throws Exception;
  }

  private final Behaviour behaviour;
  private final Consumer<ConsumerEvent> told;
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private final List<Long> handled = new CopyOnWriteArrayList<>();
  private final List<ConsumerEvent> events = new CopyOnWriteArrayList<>();

  public ConsumerRecorder() {
    this(delivery -> {});
  }

  public ConsumerRecorder(Behaviour behaviour) {
    this(behaviour, event -> {});
  }

  /** @param told also given every event, after it is recorded, on the consumer's thread */
  public ConsumerRecorder(Behaviour behaviour, Consumer<ConsumerEvent> told) {
    this.behaviour = behaviour;
    this.told = told;
  }

  @Override
  public void handle(Delivery delivery) throws Exception {
    deliveries.add(delivery);
    behaviour.on(delivery);
    for (Block block : delivery.blocks()) {
      handled.add(block.position().value());
    }
  }

  @Override
  public void onEvent(ConsumerEvent event) {
    events.add(event);
    told.accept(event);
  }

  /** Every delivery handed over, failed attempts included, in order. */
  public List<Delivery> deliveries() {
    return List.copyOf(deliveries);
  }

  /** The positions of the blocks of every delivery the handler returned from, in order. */
  public List<Long> handled() {
    return List.copyOf(handled);
  }

  public List<ConsumerEvent> events() {
    return List.copyOf(events);
  }

  /** The events of one kind, in order. */
  public <T extends ConsumerEvent> List<T> events(Class<T> kind) {
    return events.stream().filter(kind::isInstance).map(kind::cast).toList();
  }
}
