package dev.feedstore.core.store;

/**
 * One transaction of the replica's {@link FeedStore}: the authority's views, widened with the moves
 * only a replica makes (unpositioned blocks, re-keying, published marks, positions set and cleared,
 * namespaces adopted), and the replica's own state (sync state, replication policies). The views are
 * valid only while the work that received the transaction runs. Not thread-safe.
 */
public interface StoreTransaction extends AuthorityTransaction {
  /** The feeds of every space, with the replica's moves. */
  @Override
  ReplicaFeedCatalog feeds();

  /** The blocks of every space, with the replica's moves. */
  @Override
  ReplicaBlockLog blocks();

  /** The replica's per-space sync state. */
  SyncStates syncStates();

  /** The replica's replication policies. */
  ReplicationPolicies replication();

  /** The replica's blocks as versions of live-query documents. */
  DocumentVersions versions();
}
