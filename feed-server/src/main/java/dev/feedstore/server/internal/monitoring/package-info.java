/**
 * What an operator sees of the running server: its meters ({@link
 * dev.feedstore.server.internal.monitoring.ServerMetrics}), its logs of rejections and failures at
 * a bounded rate ({@code RateLimitedLog}), the names of its threads ({@code NamedThreads}) and its
 * version ({@code ServerVersion}). Imports nothing of the server.
 */
package dev.feedstore.server.internal.monitoring;
