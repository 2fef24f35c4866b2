/**
 * The HTTP edge, on Jetty: {@link dev.feedstore.server.internal.http.HttpEdge} serves the {@link
 * dev.feedstore.server.internal.http.HttpApi} (every FeedSync call: pages of blocks, Server-Sent
 * Events through {@code SseSink}, live queries through {@code HttpLiveQueries} and {@code
 * SseQuerySink}, appends and the calls of {@code ApiCalls}) and the metrics endpoint; the protocols
 * it is given ({@code HttpProtocol}) are served beside the API's endpoints with its access rules.
 * Imports core, requests and the packages below them; knows neither gRPC nor Durable Streams.
 */
package dev.feedstore.server.internal.http;
