package dev.feedstore.sqlite.internal;

import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.store.ReplicaBlockLog;
import dev.feedstore.core.store.ReplicaFeedCatalog;
import dev.feedstore.core.store.ReplicationPolicies;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.store.SyncStates;
import dev.feedstore.store.IdCache;
import dev.feedstore.store.Sql;
import dev.feedstore.store.SqlBlockLog;
import dev.feedstore.store.SqlFailure;
import dev.feedstore.store.SqlTransaction;
import dev.feedstore.store.StatementCache;
import dev.feedstore.store.TokenKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One transaction of the SQLite store: the shared views ({@link SqlTransaction}) and a replica's own
 * (its block moves, sync states and replication policies), on one connection. Not thread-safe; lives
 * only while its work runs.
 */
final class SqliteTransaction extends SqlTransaction implements StoreTransaction {
  private final StatementCache statements;
  private SyncStates syncStates;
  private ReplicationPolicies replication;
  private DocumentVersions versions;

  SqliteTransaction(StatementCache statements, IdCache.Pending ids, TokenKey tokenKey, boolean writable) {
    super(SqliteDialect.INSTANCE, new Sql(statements), ids, tokenKey, writable);
    this.statements = statements;
  }

  @Override
  public ReplicaFeedCatalog feeds() {
    return (ReplicaFeedCatalog) super.feeds();
  }

  @Override
  public ReplicaBlockLog blocks() {
    return (ReplicaBlockLog) super.blocks();
  }

  @Override
  protected SqlBlockLog newBlockLog() {
    return new SqliteReplicaBlockLog(this);
  }

  @Override
  public SyncStates syncStates() {
    if (syncStates == null) {
      syncStates = new SqliteSyncStates(this);
    }
    return syncStates;
  }

  @Override
  public ReplicationPolicies replication() {
    if (replication == null) {
      replication = new SqliteReplicationPolicies(this);
    }
    return replication;
  }

  @Override
  public DocumentVersions versions() {
    if (versions == null) {
      versions = new SqliteDocumentVersions(this);
    }
    return versions;
  }

  /**
   * Writes the schema version again, unchanged: a real write of the file's first page, which the
   * commit puts in the WAL like any change, and which no reader can tell from no write.
   *
   * @return the file's page size in bytes
   */
  long rewriteHeader() {
    try (Statement statement = statements.connection().createStatement()) {
      long version = longOf(statement, SqliteDialect.USER_VERSION);
      statement.execute(SqliteDialect.setUserVersion(version));
      long pageSize = longOf(statement, SqliteDialect.PAGE_SIZE);
      return pageSize == 0 ? 4096 : pageSize;
    } catch (SQLException e) {
      throw new SqlFailure("rewriting the schema version", e);
    }
  }

  private static long longOf(Statement statement, String pragma) throws SQLException {
    try (ResultSet rs = statement.executeQuery(pragma)) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }
}
