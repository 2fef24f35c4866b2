/**
 * The library over gRPC channels of the application's own: {@link
 * dev.feedstore.client.grpc.AuthorityChannel} syncs a replica, runs durable consumers or keeps
 * appends in flight over a {@code io.grpc.Channel}, and {@link dev.feedstore.client.grpc.BearerToken}
 * gives such a channel the access token. The only package of the library whose signatures show gRPC types; {@code
 * dev.feedstore.client} shows none.
 */
package dev.feedstore.client.grpc;
