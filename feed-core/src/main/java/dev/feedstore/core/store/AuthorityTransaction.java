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
