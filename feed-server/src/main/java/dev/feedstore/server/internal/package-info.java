/**
 * The authority's implementation, not an API. Domain rules without gRPC: {@link
 * dev.feedstore.server.internal.PositionAuthority} (Append, Query, Subscribe, ListFeeds over the
 * store, with per-space counters and tokens in {@code Spaces}/{@code SpaceState}), {@code
 * SubscriptionBook}, {@code PageReader}. The gRPC edge: {@link
 * dev.feedstore.server.internal.FeedSyncService} (wire validation in {@code WireRequests}, statuses
 * in {@code Failures}) and the live fan-out: {@code Watches}, {@code WatchStream}, {@code
 * SpaceTail}, {@code RecentBlocks}.
 */
package dev.feedstore.server.internal;
