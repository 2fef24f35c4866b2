/**
 * The PostgreSQL store's transactions, views, schema and the connection that hears other processes'
 * commits. Not an API: used by {@link dev.feedstore.postgres.PostgresStore} only.
 */
package dev.feedstore.postgres.internal;
