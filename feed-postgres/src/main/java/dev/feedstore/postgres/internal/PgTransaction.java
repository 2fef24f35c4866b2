package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.BlockLog;
import dev.feedstore.core.store.FeedCatalog;
import dev.feedstore.core.store.ServerTokens;
import dev.feedstore.core.store.StreamCatalog;
import dev.feedstore.core.store.Subscriptions;
import dev.feedstore.core.store.UnknownFeedException;
import java.sql.Connection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One transaction on one connection of the pool, and the ids its views share. The ids of spaces and
 * feeds are remembered for this transaction only: another process may create them at any time, and
 * a restored dump may give them other ids, so nothing read here outlives the transaction. Not
 * thread-safe; lives only while its work runs.
 */
final class PgTransaction implements AuthorityTransaction {
  private static final String CREATE_SPACE = "INSERT INTO spaces (space_id) VALUES (?)"
      + " ON CONFLICT (space_id) DO NOTHING RETURNING space_private_id";
  private static final String FIND_SPACE = "SELECT space_private_id FROM spaces WHERE space_id = ?";
  private static final String CREATE_FEED = "INSERT INTO feeds (space_private_id, feed_id, feed_namespace)"
      + " VALUES (?, ?, ?) ON CONFLICT (space_private_id, feed_id) DO NOTHING RETURNING feed_private_id";
  private static final String FIND_FEED =
      "SELECT feed_private_id, feed_namespace FROM feeds WHERE space_private_id = ? AND feed_id = ?";

  final Connection connection;
  final boolean writable;
  final PgStoreState state;
  private final Map<SpaceId, Long> spaces = new HashMap<>();
  private final Map<Long, Map<FeedId, FeedRow>> feedRows = new HashMap<>();
  private final Map<Long, Long> blockCountDeltas = new LinkedHashMap<>();
  private final Map<Long, Long> feedCountDeltas = new LinkedHashMap<>();

  private PgFeedCatalog feeds;
  private PgBlockLog blocks;
  private PgServerTokens serverTokens;
  private PgSubscriptions subscriptions;
  private PgStreamCatalog streams;

  PgTransaction(Connection connection, boolean writable, PgStoreState state) {
    this.connection = connection;
    this.writable = writable;
    this.state = state;
  }

  @Override
  public FeedCatalog feeds() {
    if (feeds == null) {
      feeds = new PgFeedCatalog(this);
    }
    return feeds;
  }

  @Override
  public BlockLog blocks() {
    if (blocks == null) {
      blocks = new PgBlockLog(this);
    }
    return blocks;
  }

  @Override
  public ServerTokens serverTokens() {
    if (serverTokens == null) {
      serverTokens = new PgServerTokens(this);
    }
    return serverTokens;
  }

  @Override
  public Subscriptions subscriptions() {
    if (subscriptions == null) {
      subscriptions = new PgSubscriptions(this);
    }
    return subscriptions;
  }

  @Override
  public StreamCatalog streams() {
    if (streams == null) {
      streams = new PgStreamCatalog(this);
    }
    return streams;
  }

  /** The private id of the space, if the database has it. */
  Optional<Long> findSpace(SpaceId spaceId) {
    Long known = spaces.get(spaceId);
    if (known != null) {
      return Optional.of(known);
    }
    Long id = Sql.longValue(connection, FIND_SPACE, spaceId.value());
    if (id != null) {
      spaces.put(spaceId, id);
    }
    return Optional.ofNullable(id);
  }

  /** The private id of the space, made if the database does not have it (by this or another process). */
  long space(SpaceId spaceId) {
    Optional<Long> found = findSpace(spaceId);
    if (found.isPresent()) {
      return found.get();
    }
    Long id = Sql.longValue(connection, CREATE_SPACE, spaceId.value());
    if (id == null) {
      // Another transaction stored it since: read committed sees it now.
      id = Sql.longValue(connection, FIND_SPACE, spaceId.value());
      if (id == null) {
        throw new IllegalStateException("space " + spaceId + " was neither stored nor found");
      }
    }
    spaces.put(spaceId, id);
    return id;
  }

  Optional<FeedRow> findFeed(SpaceId spaceId, FeedId feedId) {
    Optional<Long> space = findSpace(spaceId);
    return space.isEmpty() ? Optional.empty() : findFeed(space.get(), feedId);
  }

  Optional<FeedRow> findFeed(long spacePrivateId, FeedId feedId) {
    Map<FeedId, FeedRow> known = feedRows.computeIfAbsent(spacePrivateId, s -> new HashMap<>());
    FeedRow row = known.get(feedId);
    if (row != null) {
      return Optional.of(row);
    }
    List<FeedRow> rows = Sql.list(connection, FIND_FEED, rs -> new FeedRow(rs.getLong(1), spacePrivateId, feedId,
        Optional.ofNullable(rs.getString(2)).map(Namespace::new)), spacePrivateId, feedId.value());
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    known.put(feedId, rows.get(0));
    return Optional.of(rows.get(0));
  }

  /** Keeps a feed row read by this transaction, for its later lookups. */
  void rememberFeed(FeedRow row) {
    feedRows.computeIfAbsent(row.spacePrivateId(), s -> new HashMap<>()).put(row.feedId(), row);
  }

  FeedRow requireFeed(SpaceId spaceId, FeedId feedId) {
    return findFeed(spaceId, feedId).orElseThrow(() -> new UnknownFeedException(spaceId, feedId));
  }

  /** The feed, created with {@code namespace} unless the database has it; counted in its space when created. */
  FeedRow createFeed(SpaceId spaceId, FeedId feedId, Optional<Namespace> namespace) {
    long spacePrivateId = space(spaceId);
    Optional<FeedRow> existing = findFeed(spacePrivateId, feedId);
    if (existing.isPresent()) {
      return existing.get();
    }
    Long id = Sql.longValue(connection, CREATE_FEED, spacePrivateId, feedId.value(),
        namespace.map(Namespace::value).orElse(null));
    if (id == null) {
      return findFeed(spacePrivateId, feedId).orElseThrow(() ->
          new IllegalStateException("feed " + feedId + " was neither stored nor found"));
    }
    FeedRow row = new FeedRow(id, spacePrivateId, feedId, namespace);
    feedRows.get(spacePrivateId).put(feedId, row);
    feedCountDeltas.merge(spacePrivateId, 1L, Long::sum);
    return row;
  }

  long pendingFeedCount(long spacePrivateId) {
    return feedCountDeltas.getOrDefault(spacePrivateId, 0L);
  }

  void countInserted(long feedPrivateId, long delta) {
    blockCountDeltas.merge(feedPrivateId, delta, Long::sum);
  }

  long pendingBlockCount(long feedPrivateId) {
    return blockCountDeltas.getOrDefault(feedPrivateId, 0L);
  }

  /**
   * Writes what was deferred to the end of the transaction, one statement per table whatever the
   * number of rows (an append interleaving a hundred feeds counts in all of them); call just before
   * commit.
   */
  void flush() {
    flush(blockCountDeltas, "UPDATE feeds f SET block_count = f.block_count + d.n"
        + " FROM unnest(?, ?) AS d(id, n) WHERE f.feed_private_id = d.id");
    flush(feedCountDeltas, "UPDATE spaces s SET feed_count = s.feed_count + d.n"
        + " FROM unnest(?, ?) AS d(id, n) WHERE s.space_private_id = d.id");
  }

  private void flush(Map<Long, Long> deltas, String sql) {
    deltas.values().removeIf(delta -> delta == 0);
    if (!deltas.isEmpty()) {
      Sql.update(connection, sql, deltas.keySet().toArray(Long[]::new), deltas.values().toArray(Long[]::new));
    }
    deltas.clear();
  }
}
