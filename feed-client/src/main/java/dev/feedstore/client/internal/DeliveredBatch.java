package dev.feedstore.client.internal;

import dev.feedstore.client.Delivery;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/** A {@link Delivery} whose acknowledgements go to the consumer that made it. Immutable; thread-safe. */
final class DeliveredBatch implements Delivery {
  private final SpaceId space;
  private final List<Block> blocks;
  private final Map<FeedId, Namespace> namespaces;
  private final int attempt;
  private final Consumer<Position> acknowledgements;

  /** @param acknowledgements takes the position each acknowledgement goes up to; must not block */
  DeliveredBatch(SpaceId space, List<Block> blocks, Map<FeedId, Namespace> namespaces, int attempt,
      Consumer<Position> acknowledgements) {
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("a delivery holds at least one block");
    }
    this.space = space;
    this.blocks = List.copyOf(blocks);
    this.namespaces = Map.copyOf(namespaces);
    this.attempt = attempt;
    this.acknowledgements = acknowledgements;
  }

  @Override
  public SpaceId space() {
    return space;
  }

  @Override
  public List<Block> blocks() {
    return blocks;
  }

  @Override
  public Position first() {
    return blocks.get(0).position();
  }

  @Override
  public Position last() {
    return blocks.get(blocks.size() - 1).position();
  }

  @Override
  public Optional<Namespace> namespace(FeedId feed) {
    return Optional.ofNullable(namespaces.get(feed));
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public void acknowledge() {
    acknowledgements.accept(last());
  }

  @Override
  public void acknowledge(Position upTo) {
    Objects.requireNonNull(upTo, "upTo");
    if (upTo.compareTo(first()) < 0 || upTo.compareTo(last()) > 0) {
      throw new IllegalArgumentException("upTo must be a position of this delivery, from " + first() + " to "
          + last() + ", was " + upTo);
    }
    acknowledgements.accept(upTo);
  }

  @Override
  public String toString() {
    return "Delivery[" + space.value() + " " + first() + ".." + last() + ", " + blocks.size() + " blocks, attempt "
        + attempt + "]";
  }
}
