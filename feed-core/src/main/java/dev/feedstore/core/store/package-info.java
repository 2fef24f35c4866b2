/**
 * The storage contract, shaped by its callers' roles.
 *
 * <p>The position authority needs an {@link dev.feedstore.core.store.AuthorityStore}: its
 * transactions ({@link dev.feedstore.core.store.AuthorityTransaction}) offer the feeds with their
 * counts ({@link dev.feedstore.core.store.FeedCatalog}), the blocks stored at positions claimed from
 * each space's counter and read by key, position and cursor ({@link
 * dev.feedstore.core.store.BlockLog}), the server tokens ({@link
 * dev.feedstore.core.store.ServerTokens}) and the subscriptions ({@link
 * dev.feedstore.core.store.Subscriptions}). A store made for the authority alone implements these
 * and nothing else.
 *
 * <p>A replica needs a {@link dev.feedstore.core.store.FeedStore}, an authority store whose
 * transactions ({@link dev.feedstore.core.store.StoreTransaction}) widen those views with the moves
 * only a replica makes ({@link dev.feedstore.core.store.ReplicaBlockLog}: unpositioned blocks,
 * positions set and cleared, re-keying and merging, published marks, set-aside blocks; {@link
 * dev.feedstore.core.store.ReplicaFeedCatalog}: adopted namespaces) and add its own state ({@link
 * dev.feedstore.core.store.SyncStates}, {@link dev.feedstore.core.store.ReplicationPolicies}). One
 * such store can back either role.
 *
 * <p>Implementations live elsewhere (feed-sqlite); nothing here knows about SQL.
 */
package dev.feedstore.core.store;
