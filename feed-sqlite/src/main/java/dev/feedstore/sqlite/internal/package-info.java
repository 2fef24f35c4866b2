/**
 * The SQLite store's implementation: the store and its connections ({@code SqliteStore}), one
 * transaction's views ({@code SqliteTransaction} and the {@code Sqlite*} classes of the store
 * interfaces), the schema's forward migrations ({@code SchemaMigrator}, scripts under {@code
 * migrations/}), and the translation of SQLite's errors ({@code SqlErrors}).
 *
 * <p><b>One way to write SQL: plain SQL of the dialect.</b> Every statement is SQLite's own SQL
 * text, a constant (or, for lists of values, a string built from constants) in the class whose view
 * runs it, executed through {@code Sql} on the connection's prepared statements, which are prepared
 * once and kept ({@code Statements}). No query builder: the hot paths (an append's batch insert and
 * counter claim, a pull's lookups by key and position, pages after a cursor, the sync state) were
 * measured to spend more on a builder rendering each statement anew than on running it, and a
 * statement rendered once and cached would still be written in two languages, the builder's calls
 * and the text they make, where one will do. The features the store leans on ({@code ON CONFLICT DO
 * NOTHING} in a batch, {@code INSERT} and {@code UPDATE ... RETURNING}, a window sum over {@code
 * length(data)}, which SQLite reads from the record header) read best as the dialect documents
 * them, and the text a reader sees is the text SQLite runs ({@code EXPLAIN QUERY PLAN} takes it as
 * it is). Another database's store writes its own dialect's SQL the same way.
 */
package dev.feedstore.sqlite.internal;
