/**
 * Live queries: the model ({@link dev.feedstore.core.query.LiveQuery}: space, scope, document key,
 * filter, tombstone, projection, order and limit; built with its builder or parsed from the JSON or
 * the text form), and how a version is evaluated: the block read as JSON once ({@link
 * dev.feedstore.core.query.ParsedBlock}), the document it belongs to ({@link
 * dev.feedstore.core.query.DocumentKey}, {@link dev.feedstore.core.query.DocumentId}), the
 * predicates it must pass ({@link dev.feedstore.core.query.Predicate}), and the row it shows
 * ({@link dev.feedstore.core.query.Row}) in the result's order ({@link
 * dev.feedstore.core.query.RowOrder}). {@link dev.feedstore.core.query.LiveQuery#evaluate} is the
 * from-scratch reference; the incremental engine is in {@code dev.feedstore.core.query.result}.
 * docs/live-queries.md states the semantics.
 */
package dev.feedstore.core.query;
