/**
 * The replica library: a {@link dev.feedstore.client.Replica} keeps feeds in a local SQLite file
 * that the application reads and appends to with or without a connection, and a {@link
 * dev.feedstore.client.SyncSession} syncs it with a position authority; {@link
 * dev.feedstore.client.DurableConsumers} process a scope's blocks at least once over durable
 * subscriptions. Values come from {@code dev.feedstore.core}. No gRPC or SQLite type appears here:
 * programs that bring their own gRPC channels use {@code dev.feedstore.client.grpc}.
 */
package dev.feedstore.client;
