/**
 * The feed store in a SQLite file: {@link dev.feedstore.sqlite.SqliteFeedStore} opens one, for a
 * replica or for the position authority (one schema serves both roles), configured by {@link
 * dev.feedstore.sqlite.SqliteSettings}. Everything else lives in {@code dev.feedstore.sqlite.internal}
 * and is not an API.
 *
 * <p>SQL is written one way: plain SQLite SQL, in constants beside the code that runs it, each
 * statement prepared once per connection and kept. See {@code dev.feedstore.sqlite.internal} for
 * why.
 */
package dev.feedstore.sqlite;
