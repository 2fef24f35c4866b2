/**
 * The storage contract shared by the position authority and the replica: a {@link
 * dev.feedstore.core.store.FeedStore} runs work in transactions, and a {@link
 * dev.feedstore.core.store.StoreTransaction} hands out the views of one role or another (feeds,
 * blocks, the authority's server tokens and subscriptions, the replica's sync state and replication
 * policies). Implementations live elsewhere (feed-sqlite); nothing here knows about SQL.
 */
package dev.feedstore.core.store;
