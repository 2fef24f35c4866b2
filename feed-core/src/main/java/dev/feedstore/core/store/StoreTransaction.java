package dev.feedstore.core.store;

/**
 * One transaction of a {@link FeedStore}, offering its data through views. The views are valid only
 * while the work that received the transaction runs. Not thread-safe.
 */
public interface StoreTransaction {
  /** The feeds of every space. */
  FeedCatalog feeds();

  /** The blocks of every space. */
  BlockLog blocks();

  /** The authority's per-space server tokens. */
  ServerTokens serverTokens();

  /** The authority's stored subscriptions. */
  Subscriptions subscriptions();

  /** The replica's per-space sync state. */
  SyncStates syncStates();

  /** The replica's replication policies. */
  ReplicationPolicies replication();
}
