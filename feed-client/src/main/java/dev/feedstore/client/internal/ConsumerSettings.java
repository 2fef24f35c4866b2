package dev.feedstore.client.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a durable consumer runs, as {@code DurableConsumers.Builder} checked it. Immutable.
 *
 * @param ackWithin the deadline asked for a subscription the consumer makes; empty: the authority's default
 * @param maxBlocksInFlight the next batch is asked for only while fewer blocks than this are received
 *     and not acknowledged
 * @param handlerAttempts how many times a batch is handed to a handler that throws
 * @param manualAcknowledgement whether the application acknowledges (otherwise each batch is
 *     acknowledged once the handler returns)
 */
public record ConsumerSettings(Optional<Duration> ackWithin, int maxBlocksInFlight, int handlerAttempts,
    Duration handlerBackoffInitial, Duration handlerBackoffMax, Duration reconnectBackoffInitial,
    Duration reconnectBackoffMax, boolean manualAcknowledgement) {

  public ConsumerSettings {
    Objects.requireNonNull(ackWithin, "ackWithin");
    Objects.requireNonNull(handlerBackoffInitial, "handlerBackoffInitial");
    Objects.requireNonNull(handlerBackoffMax, "handlerBackoffMax");
    Objects.requireNonNull(reconnectBackoffInitial, "reconnectBackoffInitial");
    Objects.requireNonNull(reconnectBackoffMax, "reconnectBackoffMax");
  }
}
