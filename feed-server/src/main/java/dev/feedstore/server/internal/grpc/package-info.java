/**
 * The gRPC edge, the only part of the server that speaks gRPC: {@link
 * dev.feedstore.server.internal.grpc.GrpcEdge} serves {@link
 * dev.feedstore.server.internal.grpc.FeedSyncService} with its interceptors (caller, connection,
 * calls in flight, well-formed requests, metrics), health and reflection; Watch is a {@code
 * GrpcWatchSink} sending {@code WatchFrame}s, LiveQuery a {@code GrpcQuerySink}; {@code Failures}
 * maps refusals to statuses. Imports core, requests and the packages below them.
 */
package dev.feedstore.server.internal.grpc;
