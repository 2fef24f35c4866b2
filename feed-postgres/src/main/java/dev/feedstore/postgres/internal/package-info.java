/**
 * The PostgreSQL store's transactions, its dialect, its schema and the connection that hears other
 * processes' commits. Not an API: used by {@link dev.feedstore.postgres.PostgresStore} only.
 */
package dev.feedstore.postgres.internal;
