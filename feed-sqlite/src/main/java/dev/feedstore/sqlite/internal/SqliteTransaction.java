package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.store.ReplicaBlockLog;
import dev.feedstore.core.store.ReplicaFeedCatalog;
import dev.feedstore.core.store.ReplicationPolicies;
import dev.feedstore.core.store.ServerTokens;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.Subscriptions;
import dev.feedstore.core.store.SyncStates;
import dev.feedstore.core.store.UnknownFeedException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One transaction on one connection, and the row-id bookkeeping its views share. Not thread-safe;
 * lives only while its work runs.
 */
final class SqliteTransaction implements StoreTransaction {
  private static final String CREATE_SPACE = "INSERT INTO spaces (space_id) VALUES (?) RETURNING space_private_id";
  private static final String CREATE_FEED = "INSERT INTO feeds (space_private_id, feed_id, feed_namespace)"
      + " VALUES (?, ?, ?) RETURNING feed_private_id";

  final Statements statements;
  final IdCache.Pending ids;
  final TokenKey tokenKey;
  final boolean writable;
  private final Map<Long, Long> blockCountDeltas = new HashMap<>();
  private final Map<Long, Long> feedCountDeltas = new HashMap<>();

  private ReplicaFeedCatalog feeds;
  private ReplicaBlockLog blocks;
  private ServerTokens serverTokens;
  private Subscriptions subscriptions;
  private SyncStates syncStates;
  private ReplicationPolicies replication;
  private StreamCatalog streams;
  private DocumentVersions versions;

  SqliteTransaction(Statements statements, IdCache.Pending ids, TokenKey tokenKey, boolean writable) {
    this.statements = statements;
    this.ids = ids;
    this.tokenKey = tokenKey;
    this.writable = writable;
  }

  @Override
  public ReplicaFeedCatalog feeds() {
    if (feeds == null) {
      feeds = new SqliteFeedCatalog(this);
    }
    return feeds;
  }

  @Override
  public ReplicaBlockLog blocks() {
    if (blocks == null) {
      blocks = new SqliteBlockLog(this);
    }
    return blocks;
  }

  @Override
  public ServerTokens serverTokens() {
    if (serverTokens == null) {
      serverTokens = new SqliteServerTokens(this);
    }
    return serverTokens;
  }

  @Override
  public Subscriptions subscriptions() {
    if (subscriptions == null) {
      subscriptions = new SqliteSubscriptions(this);
    }
    return subscriptions;
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
  public StreamCatalog streams() {
    if (streams == null) {
      streams = new SqliteStreamCatalog(this);
    }
    return streams;
  }

  @Override
  public DocumentVersions versions() {
    if (versions == null) {
      versions = new SqliteDocumentVersions(this);
    }
    return versions;
  }

  /** The private id of the space, if the file has it. */
  Optional<Long> findSpace(SpaceId spaceId) {
    Long cached = ids.space(spaceId);
    if (cached != null) {
      return Optional.of(cached);
    }
    Long id = Sql.longValue(this, "SELECT space_private_id FROM spaces WHERE space_id = ?", spaceId.value());
    if (id != null) {
      ids.putSpace(spaceId, id);
    }
    return Optional.ofNullable(id);
  }

  /**
   * The space with private id {@code privateId}, read from the file: for naming a space in a report,
   * not for hot paths.
   */
  SpaceId spaceIdOf(long privateId) {
    java.util.List<String> ids = Sql.list(this, "SELECT space_id FROM spaces WHERE space_private_id = ?",
        rs -> rs.getString(1), privateId);
    if (ids.isEmpty() || ids.get(0) == null) {
      throw new IllegalStateException("no space has private id " + privateId);
    }
    return new SpaceId(ids.get(0));
  }

  /** The private id of the space, made if the file does not have it. */
  long space(SpaceId spaceId) {
    Optional<Long> found = findSpace(spaceId);
    if (found.isPresent()) {
      return found.get();
    }
    long id = Sql.longValue(this, CREATE_SPACE, spaceId.value());
    ids.putSpace(spaceId, id);
    return id;
  }

  Optional<FeedRow> findFeed(SpaceId spaceId, FeedId feedId) {
    Optional<Long> space = findSpace(spaceId);
    return space.isEmpty() ? Optional.empty() : findFeed(space.get(), feedId);
  }

  Optional<FeedRow> findFeed(long spacePrivateId, FeedId feedId) {
    FeedRow cached = ids.feed(spacePrivateId, feedId);
    if (cached != null) {
      return Optional.of(cached);
    }
    // A plain statement, prepared once per connection: with the cache bounded, this runs for every
    // feed whose row was forgotten.
    List<FeedRow> rows = Sql.list(this,
        "SELECT feed_private_id, feed_namespace FROM feeds WHERE space_private_id = ? AND feed_id = ?",
        rs -> new FeedRow(rs.getLong(1), spacePrivateId, feedId, Optional.ofNullable(rs.getString(2)).map(Namespace::new)),
        spacePrivateId, feedId.value());
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    ids.putFeed(rows.get(0));
    return Optional.of(rows.get(0));
  }

  /** The feed row with private id {@code privateId}, which the file must hold. */
  FeedRow feedById(long privateId) {
    FeedRow cached = ids.feedById(privateId);
    if (cached != null) {
      return cached;
    }
    java.util.List<FeedRow> rows = Sql.list(this,
        "SELECT space_private_id, feed_id, feed_namespace FROM feeds WHERE feed_private_id = ?",
        rs -> new FeedRow(privateId, rs.getLong(1), new FeedId(rs.getString(2)),
            Optional.ofNullable(rs.getString(3)).map(Namespace::new)),
        privateId);
    if (rows.isEmpty()) {
      throw new IllegalStateException("no feed has private id " + privateId);
    }
    ids.putFeed(rows.get(0));
    return rows.get(0);
  }

  FeedRow requireFeed(SpaceId spaceId, FeedId feedId) {
    return findFeed(spaceId, feedId).orElseThrow(() -> new UnknownFeedException(spaceId, feedId));
  }

  FeedRow createFeed(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    long spacePrivateId = space(spaceId);
    Optional<FeedRow> existing = findFeed(spacePrivateId, feedId);
    if (existing.isPresent()) {
      return existing.get();
    }
    long id = Sql.longValue(this, CREATE_FEED, spacePrivateId, feedId.value(),
        namespace.map(Namespace::value).orElse(null));
    FeedRow row = new FeedRow(id, spacePrivateId, feedId, namespace);
    ids.putFeed(row);
    feedCountDeltas.merge(spacePrivateId, 1L, Long::sum);
    return row;
  }

  /** How many feeds this transaction created in the space so far. */
  long pendingFeedCount(long spacePrivateId) {
    return feedCountDeltas.getOrDefault(spacePrivateId, 0L);
  }

  void countInserted(long feedPrivateId) {
    countInserted(feedPrivateId, 1);
  }

  void countInserted(long feedPrivateId, long delta) {
    blockCountDeltas.merge(feedPrivateId, delta, Long::sum);
  }

  long pendingBlockCount(long feedPrivateId) {
    return blockCountDeltas.getOrDefault(feedPrivateId, 0L);
  }

  /**
   * Writes the schema version again, unchanged: a real write of the file's first page, which the
   * commit puts in the WAL like any change, and which no reader can tell from no write.
   *
   * @return the file's page size in bytes
   */
  long rewriteHeader() {
    Long version = Sql.longValue(this, "PRAGMA user_version");
    Sql.update(this, "PRAGMA user_version = " + (version == null ? 0 : version));
    Long pageSize = Sql.longValue(this, "PRAGMA page_size");
    return pageSize == null ? 4096 : pageSize;
  }

  /** Writes what was deferred to the end of the transaction; call just before commit. */
  void flush() {
    flush(blockCountDeltas, "UPDATE feeds SET block_count = block_count + ? WHERE feed_private_id = ?");
    flush(feedCountDeltas, "UPDATE spaces SET feed_count = feed_count + ? WHERE space_private_id = ?");
  }

  private void flush(Map<Long, Long> deltas, String sql) {
    for (Map.Entry<Long, Long> delta : deltas.entrySet()) {
      Sql.update(this, sql, delta.getValue(), delta.getKey());
    }
    deltas.clear();
  }
}
