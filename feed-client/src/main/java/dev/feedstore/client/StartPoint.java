package dev.feedstore.client;

import dev.feedstore.core.Position;
import java.util.Objects;

/**
 * Where a {@link DurableConsumer} starts when the application chooses: given to {@link
 * DurableConsumers#consume(dev.feedstore.core.SpaceId, dev.feedstore.core.Scope, String, StartPoint,
 * DeliveryHandler)}, after a consumer stopped with {@link ConsumerEvent.Expired} or {@link
 * ConsumerEvent.Compacted}, or for the first run of a new one. A start point never moves a
 * subscription back: delivery starts after the later of the subscription's acknowledged position and
 * the start point. Immutable.
 */
public sealed interface StartPoint permits StartPoint.Earliest, StartPoint.Latest, StartPoint.After {

  /**
   * Where the subscription stands: after its acknowledged position, or, for a new one, at the
   * oldest block the authority still holds in the scope.
   */
  StartPoint EARLIEST = new Earliest();

  /** After the space's highest position when the consumer starts: only blocks appended from then on. */
  StartPoint LATEST = new Latest();

  /** After {@code position} ({@code 0}: as {@link #EARLIEST}). */
  static StartPoint after(Position position) {
    return new After(position);
  }

  /** See {@link #EARLIEST}. */
  record Earliest() implements StartPoint {
    @Override
    public String toString() {
      return "earliest";
    }
  }

  /** See {@link #LATEST}. */
  record Latest() implements StartPoint {
    @Override
    public String toString() {
      return "latest";
    }
  }

  /** See {@link #after}. */
  record After(Position position) implements StartPoint {
    /** Checks that the position is given. */
    public After {
      Objects.requireNonNull(position, "position");
    }

    @Override
    public String toString() {
      return "after " + position;
    }
  }
}
