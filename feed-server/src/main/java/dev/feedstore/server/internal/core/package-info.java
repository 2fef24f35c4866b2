/**
 * {@link dev.feedstore.server.internal.core.ServerCore}: everything behind the server's sockets,
 * shared by its transports: the authority, the live streams, access, storage health, metrics, the
 * executors and the ticker; {@link dev.feedstore.server.internal.core.BlockAccess}, the caller's
 * grants applied to what a call reads and writes. Knows no transport: the gRPC, HTTP and Durable Streams edges are built
 * over it.
 */
package dev.feedstore.server.internal.core;
