/**
 * The position authority's store on PostgreSQL ({@link dev.feedstore.postgres.PostgresStore}), for
 * several server processes behind a load balancer over one database. It implements the authority's
 * interfaces only ({@link dev.feedstore.core.store.AuthorityStore}); replicas stay on SQLite.
 *
 * <p>SQL is PostgreSQL's own, written as text beside the code that runs it, as the SQLite store
 * writes SQLite's: one way per dialect, no query builder. Migrations use the SQLite store's approach
 * (numbered scripts, one transaction per step with its version bump, a newer or foreign database
 * refused untouched), extended with an advisory lock so that processes starting together migrate
 * once; no migration library, because one script of the same shape as the SQLite ones needs none.
 */
package dev.feedstore.postgres;
