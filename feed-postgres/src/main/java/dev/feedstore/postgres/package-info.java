/**
 * The position authority's store on PostgreSQL ({@link dev.feedstore.postgres.PostgresStore}), for
 * several server processes behind a load balancer over one database. It implements the authority's
 * interfaces only ({@link dev.feedstore.core.store.AuthorityStore}); replicas stay on SQLite.
 *
 * <p>Its views are the ones every store shares ({@code dev.feedstore.store}, over the schema classes
 * jOOQ generates), rendered once for PostgreSQL; what PostgreSQL does its own way (row and advisory
 * locks, {@code pg_notify} with each claim of positions, arrays) is in {@code
 * dev.feedstore.postgres.internal.PostgresDialect}. Migrations use the SQLite store's approach
 * (numbered scripts, one transaction per step with its version bump, a newer or foreign database
 * refused untouched), extended with an advisory lock so that processes starting together migrate
 * once; no migration library, because one script of the same shape as the SQLite ones needs none.
 */
package dev.feedstore.postgres;
