/**
 * Live queries on the authority, whatever the transport: {@link
 * dev.feedstore.server.internal.queries.LiveQueries} admits subscriptions within their limits and
 * tracks them; each space with live queries has one {@link
 * dev.feedstore.server.internal.queries.SpaceQueries}, registered with the space's tail, which reads
 * each committed range once, parses each block once and applies it to every {@link
 * dev.feedstore.server.internal.queries.SharedQuery} of the space (one per canonical query, shared by
 * its subscribers); each {@link dev.feedstore.server.internal.queries.QuerySubscription} sends its
 * snapshot and then the shared change batches through the {@link
 * dev.feedstore.server.internal.queries.QuerySink} of its transport, and catches up from storage
 * ({@link dev.feedstore.server.internal.queries.QueryStorage}) when it resumes or falls behind.
 * Imports live (for its drains), access, authority, spaces, errors, monitoring and settings.
 */
package dev.feedstore.server.internal.queries;
