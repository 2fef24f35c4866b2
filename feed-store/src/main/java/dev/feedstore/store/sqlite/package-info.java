/**
 * The SQLite store's schema: its numbered migrations and the migrator that applies them ({@link
 * dev.feedstore.store.sqlite.SchemaMigrator}). They live beside the shared store code because the
 * build generates the schema classes of both stores from the file they make ({@link
 * dev.feedstore.store.sqlite.SchemaFile}); the PostgreSQL store migrates its own schema, which a test
 * keeps equal to the generated one.
 */
package dev.feedstore.store.sqlite;
