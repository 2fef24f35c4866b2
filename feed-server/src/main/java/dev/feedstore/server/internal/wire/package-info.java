/**
 * The {@code feed.v1} requests checked into the authority's commands ({@link
 * dev.feedstore.server.internal.wire.WireRequests}): every value against its rule and every limit
 * against its setting, for the gRPC edge and, until it builds its commands itself, the HTTP edge.
 * Imports authority, errors and settings, and the generated protobuf types.
 */
package dev.feedstore.server.internal.wire;
