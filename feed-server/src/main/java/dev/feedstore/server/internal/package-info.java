/**
 * The authority's implementation, not an API. Domain rules without a transport: {@link
 * dev.feedstore.server.internal.authority.PositionAuthority} (Append, Query, Subscribe, ListFeeds over the
 * store, with per-space counters and tokens in {@code Spaces}/{@code SpaceState}), {@code
 * SubscriptionBook}, {@code PageReader}; the live fan-out: {@code Watches}, {@code LiveFollower}
 * writing to a {@code LiveSink}, {@code SpaceTail}, {@code RecentBlocks}; who may call ({@code
 * Authenticator}, {@code Caller}), how a failure is reported ({@code Refusal}) and what is counted
 * ({@code ServerMetrics}). Two transports over them: gRPC ({@link
 * dev.feedstore.server.internal.grpc.FeedSyncService}, wire validation in {@code WireRequests}, statuses
 * in {@code Failures}, Watch as {@code GrpcWatchSink}) and HTTP on Jetty ({@code HttpEdge}).
 */
package dev.feedstore.server.internal;
