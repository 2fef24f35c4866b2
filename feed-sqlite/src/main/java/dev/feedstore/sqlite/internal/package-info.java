/**
 * The SQLite store's implementation: the store and its connections ({@code SqliteStore}: one writer
 * under a lock, a pool of readers, each connection with its cached prepared statements), one
 * transaction ({@code SqliteTransaction}: the shared views of {@code dev.feedstore.store} and a
 * replica's own, {@code SqliteReplicaBlockLog}, {@code SqliteSyncStates}, {@code
 * SqliteReplicationPolicies}, over the same generated schema classes), what SQLite does its own way
 * ({@code SqliteDialect}: the transaction's frame, PRAGMAs, {@code VACUUM INTO}, {@code quick_check},
 * lists of values as {@code IN} lists, no locks beyond the file's), background checkpoints ({@code
 * Checkpointer}), and the translation of SQLite's errors ({@code SqlErrors}, {@code OpenErrors}).
 */
package dev.feedstore.sqlite.internal;
