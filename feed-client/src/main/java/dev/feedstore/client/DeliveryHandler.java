package dev.feedstore.client;

/**
 * What a {@link DurableConsumer} does with the blocks it receives. Both methods run on the
 * consumer's own thread (one per consumer, named {@code feedstore-consumer-SPACE/NAME}), one call at
 * a time and in order, so an implementation needs no locking of its own for one consumer; the
 * consumer receives the next batches (up to {@link DurableConsumers.Builder#maxBlocksInFlight}) while
 * a call runs, but acknowledges nothing and renews nothing until it returns.
 */
@FunctionalInterface
public interface DeliveryHandler {

  /**
   * Processes a batch. When it returns, the batch is acknowledged (unless the consumer was built
   * with {@link DurableConsumers.Builder#manualAcknowledgement()}). When it throws, the same batch is
   * handed over again after a pause that grows with each attempt ({@link
   * DurableConsumers.Builder#handlerBackoff}), up to {@link DurableConsumers.Builder#handlerAttempts}
   * times in all; then the consumer stops with {@link ConsumerEvent.HandlerFailed}, having
   * acknowledged nothing of it. A batch may be delivered more than once (at least once, never
   * skipped): after a crash or a reconnection, what was not acknowledged comes again.
   *
   * <p>It must return within the subscription's deadline ({@link DurableConsumers.Builder#ackWithin}),
   * retries included, or the subscription expires ({@link ConsumerEvent.Expired}).
   */
  void handle(Delivery delivery) throws Exception;

  /**
   * Told what happens to the consumer besides batches: that it started, caught up, is idle, lost
   * its connection, and last of all why it stopped ({@link ConsumerEvent.End}). Does nothing unless
   * overridden. What it throws is logged and ignored.
   */
  default void onEvent(ConsumerEvent event) {}
}
