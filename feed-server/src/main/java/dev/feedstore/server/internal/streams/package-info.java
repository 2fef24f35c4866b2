/**
 * The Durable Streams protocol, served on the HTTP edge under {@code /v1/stream/} ({@link
 * dev.feedstore.server.internal.streams.StreamsProtocol}): {@code HttpStreams} (the requests and
 * answers, live reads as long-polls and event streams), {@link dev.feedstore.server.internal.streams.DurableStreams} (the
 * streams over the authority), offsets, producers and content types; and {@code EndedStreams}, the
 * authority's {@code ClosedFeeds}: the feeds of streams that are over take no new blocks. Imports
 * http, core, requests and the packages below them.
 */
package dev.feedstore.server.internal.streams;
