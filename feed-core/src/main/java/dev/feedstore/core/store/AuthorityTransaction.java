package dev.feedstore.core.store;

/**
 * One transaction of an {@link AuthorityStore}, offering what the position authority needs: the
 * feeds, the positioned blocks and each space's position counter, the server tokens and the
 * subscriptions. The views are valid only while the work that received the transaction runs. Not
 * thread-safe.
 */
public interface AuthorityTransaction {
  /** The feeds of every space. */
  FeedCatalog feeds();

  /** The blocks of every space, and the position counter of each. */
  BlockLog blocks();

  /** The per-space server tokens. */
  ServerTokens serverTokens();

  /**
   * Stores each append's blocks at new positions of its space, in the order given, assuming that
   * every key is new (the common case): for each, claims the positions ({@link
   * BlockLog#claimPositions}, which holds the space's counter until the transaction ends), stamps the
   * receive time ({@link BlockLog#stampReceipt}), creates the feeds the space does not have (with the
   * namespace the append gives each, counted in the space), computes the {@link
   * dev.feedstore.core.HistoryChain} at each block from the link before them, and stores the blocks
   * with their chains. Checks no limit and no grant: the caller checks what it needs on the result,
   * in this transaction, and rolls it back to refuse. A store across a network does it in one round
   * trip; the default does it step by step through the views ({@link StepwiseAppend}).
   *
   * <p>Appends to several spaces should come ordered by space, so that transactions take the rows of
   * their spaces in one order.
   *
   * @return what was done for each append, in their order; one whose {@link SpaceAppend.Stored#held}
   *     is not -1 left a hole in its space's positions, and the transaction must roll back
   * @throws IllegalStateException in a read transaction
   */
  default java.util.List<SpaceAppend.Stored> append(java.util.List<SpaceAppend> appends) {
    return StepwiseAppend.run(this, appends);
  }

  /** The stored subscriptions. */
  Subscriptions subscriptions();

  /**
   * The records of Durable Streams (what the authority keeps about a stream besides its feed's
   * blocks). A store that serves no streams keeps the default, and a server on it answers the
   * streams' endpoints with the reason.
   *
   * @throws UnsupportedOperationException if this store keeps no stream records
   */
  default StreamCatalog streams() {
    throw new UnsupportedOperationException("this store keeps no records of Durable Streams");
  }
}
