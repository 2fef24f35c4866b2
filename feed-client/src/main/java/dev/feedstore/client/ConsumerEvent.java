package dev.feedstore.client;

import dev.feedstore.core.Position;
import java.time.Duration;
import java.util.Objects;

/**
 * What happens to a {@link DurableConsumer} besides the batches it delivers, told to {@link
 * DeliveryHandler#onEvent} in order on the consumer's thread. An {@link End} is the last event: the
 * consumer has stopped, and {@link DurableConsumer#awaitEnd()} returns it. The ends that need a
 * decision ({@link Expired}, {@link Unknown}, {@link Compacted}) leave it to the application, which
 * starts again where it chooses with a {@link StartPoint}. Immutable.
 */
public sealed interface ConsumerEvent {

  /**
   * The consumer found its durable subscription (or made one): delivery starts after {@code
   * acknowledged}. Told once per consumer.
   *
   * @param created true when the subscription was made now (new, or in place of an expired one)
   */
  record Started(String subscriptionId, boolean created, Position acknowledged) implements ConsumerEvent {}

  /** Every block committed when the stream opened has been received; live blocks follow. */
  record CaughtUp(Position highest) implements ConsumerEvent {}

  /** The stream is idle and the authority alive; the subscription's deadline was renewed. */
  record Heartbeat(Position highest) implements ConsumerEvent {}

  /**
   * The authority could not be reached, or the stream ended by an outage (a restart, a lost link);
   * the consumer tries again after {@code delay} and resumes after the acknowledged position.
   *
   * @param reason the status code and description
   * @param cause the failure as the transport reported it
   */
  record Reconnecting(String reason, Duration delay, Throwable cause) implements ConsumerEvent {
    @Override
    public String toString() {
      return "Reconnecting[in " + delay.toMillis() + " ms after: " + reason + "]";
    }
  }

  /** Why a consumer stopped; its last event. */
  sealed interface End extends ConsumerEvent
      permits Closed, Expired, Unknown, Compacted, Refused, HandlerFailed, Failed {}

  /** The application closed the consumer (or its {@link DurableConsumers}). */
  record Closed() implements End {}

  /**
   * The subscription was not acknowledged within its deadline and expired: it holds no history any
   * more, and retention may remove what follows {@code acknowledged}. {@link
   * DurableConsumers#consume(dev.feedstore.core.SpaceId, dev.feedstore.core.Scope, String, StartPoint,
   * DeliveryHandler)} replaces it, from where the application says ({@code StartPoint.after(acknowledged)}
   * to lose nothing that is still there).
   */
  record Expired(String subscriptionId, Position acknowledged) implements End {}

  /**
   * The authority does not know the subscription: its store was replaced (wiped, or another
   * server's), or the subscription expired so long ago that it was forgotten.
   */
  record Unknown(String subscriptionId, Position acknowledged) implements End {}

  /**
   * The blocks after {@code after} (the last position this consumer received, or where its stream
   * started) up to {@code floor} were removed by retention or a compaction before it received them:
   * possible only once the subscription's hold was gone (it expired, and the application started
   * again from a position since removed), or when another consumer of the name acknowledged ahead of
   * this one. Starting again with {@code StartPoint.after(floor)} accepts the gap.
   */
  record Compacted(Position floor, Position after) implements End {}

  /**
   * The authority refused a call: access, a bad name or scope (a name already used with another
   * scope), a limit. Retrying would be refused again.
   *
   * @param code the status code, e.g. {@code PERMISSION_DENIED}
   * @param description what the authority said
   * @param cause the failure as the transport reported it
   */
  record Refused(String code, String description, Throwable cause) implements End {
    /** Checks that the code and the description are given. */
    public Refused {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public String toString() {
      return "Refused[" + code + ": " + description + "]";
    }
  }

  /**
   * The handler threw on every one of {@code attempts} tries of the batch from {@code first} to
   * {@code last}, which is not acknowledged; {@code cause} is what it threw last.
   */
  record HandlerFailed(Position first, Position last, int attempts, Throwable cause) implements End {
    @Override
    public String toString() {
      return "HandlerFailed[positions " + first + ".." + last + ", " + attempts + " attempts, last: " + cause + "]";
    }
  }

  /**
   * The consumer itself failed: an answer it could not read, or a fault of its own. Nothing past
   * the last acknowledged position is acknowledged.
   */
  record Failed(Throwable cause) implements End {}
}
