/**
 * The position authority as a server: {@link dev.feedstore.server.FeedServer} puts together the
 * core behind its sockets and its edges (gRPC, HTTP, Durable Streams) over a {@link
 * dev.feedstore.core.store.AuthorityStore}, configured by {@code dev.feedstore.server.settings};
 * {@link dev.feedstore.server.Main} runs it from the command line. Everything else lives in the
 * packages under {@code dev.feedstore.server.internal}, one per concern, and is not an API; {@code
 * docs/code-map.md} says which package holds what and which may import which.
 */
package dev.feedstore.server;
