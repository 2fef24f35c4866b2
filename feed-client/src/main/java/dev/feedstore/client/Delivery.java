package dev.feedstore.client;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import java.util.List;
import java.util.Optional;

/**
 * A batch of blocks a {@link DurableConsumer} hands to its {@link DeliveryHandler}: blocks of the
 * subscription's scope, in position order, after every block of the batches before it (a batch
 * delivered again after a reconnection or a retry starts after the acknowledged position, never
 * later). Thread-safe: it may be kept and acknowledged from another thread.
 */
public interface Delivery {

  /** The space the blocks are in. */
  SpaceId space();

  /** The blocks, by position; never empty. Each carries its position and the authority's receive time. */
  List<Block> blocks();

  /** The position of the first block. */
  Position first();

  /** The position of the last block. */
  Position last();

  /** The namespace of {@code feed}, for a feed of these blocks that has one. */
  Optional<Namespace> namespace(FeedId feed);

  /** 1 the first time this batch is handed over, 2 and more when the handler threw before and it is tried again. */
  int attempt();

  /**
   * Acknowledges every block of this batch and every block before it. With acknowledgement after
   * the handler returns (the default) there is no need to; with {@link
   * DurableConsumers.Builder#manualAcknowledgement()} the application must, or delivery stops once
   * {@link DurableConsumers.Builder#maxBlocksInFlight} blocks wait. Does not block: the consumer's
   * thread sends it, as soon as the handler call returns when made during it (before anything that
   * arrived meanwhile is handled), in turn with what arrives when made from another thread. An
   * acknowledgement of a batch delivered before a reconnection is dropped, since the batch is
   * delivered again after it.
   */
  void acknowledge();

  /**
   * Acknowledges the blocks of this batch up to {@code upTo}, and every block before them.
   *
   * @throws IllegalArgumentException if {@code upTo} is not between {@link #first()} and {@link #last()}
   */
  void acknowledge(Position upTo);
}
