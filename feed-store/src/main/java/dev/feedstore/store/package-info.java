/**
 * What the SQLite and PostgreSQL stores share: one implementation of each store view over the
 * generated schema classes ({@code dev.feedstore.store.schema}), written once with jOOQ and rendered
 * once per dialect ({@link dev.feedstore.store.StoreQueries}); each store gives its {@link
 * dev.feedstore.store.StoreDialect} for what its database does its own way.
 *
 * <p><b>Rendered once, run as plain JDBC.</b> jOOQ only renders here ({@link
 * dev.feedstore.store.Rendering}): a statement is rendered when its dialect's statements are made
 * ({@link dev.feedstore.store.Rendered}), then run on the connection's cached prepared statements
 * ({@link dev.feedstore.store.StatementCache}), parameters bound directly and rows read from the
 * {@code ResultSet} ({@link dev.feedstore.store.Sql}), so the hot paths cost what hand-written JDBC
 * costs. Not an API: for the two store modules only.
 */
package dev.feedstore.store;
