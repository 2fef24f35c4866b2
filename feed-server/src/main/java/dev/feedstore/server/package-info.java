/**
 * The position authority as a server: {@link dev.feedstore.server.FeedServer} serves the {@code
 * feed.v1.FeedSync} gRPC service (plus health and reflection), and optionally the same over HTTP
 * with Server-Sent Events, over a {@link
 * dev.feedstore.core.store.AuthorityStore}, configured by {@link dev.feedstore.server.settings.ServerSettings};
 * {@link dev.feedstore.server.Main} runs it from the command line on an SQLite file. Everything
 * else lives in {@code dev.feedstore.server.internal} and is not an API.
 */
package dev.feedstore.server;
