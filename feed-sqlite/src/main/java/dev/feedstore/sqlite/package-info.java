/**
 * The feed store in a SQLite file: {@link dev.feedstore.sqlite.SqliteFeedStore} opens one, for a
 * replica or for the position authority (one schema serves both roles), configured by {@link
 * dev.feedstore.sqlite.SqliteSettings}. Everything else lives in {@code dev.feedstore.sqlite.internal}
 * and is not an API.
 *
 * <p>The store's views are the ones every store shares ({@code dev.feedstore.store}, over the schema
 * classes jOOQ generates from the migrations), rendered once for SQLite; what SQLite does its own way
 * is in {@code dev.feedstore.sqlite.internal.SqliteDialect}.
 */
package dev.feedstore.sqlite;
