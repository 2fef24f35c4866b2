package dev.feedstore.postgres.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.BlockLog;
import dev.feedstore.core.store.FeedCatalog;
import dev.feedstore.core.store.ServerTokens;
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
  private static final String NOTIFY = "SELECT pg_notify('" + CommitChannel.CHANNEL + "', ?)";

  final Connection connection;
  final boolean writable;
  final PgStoreState state;
  private final Map<SpaceId, Long> spaces = new HashMap<>();
  private final Map<Long, Map<FeedId, FeedRow>> feedRows = new HashMap<>();
  private final Map<Long, Long> blockCountDeltas = new LinkedHashMap<>();
  private final Map<Long, Long> feedCountDeltas = new LinkedHashMap<>();
  /** The highest position claimed in each space by this transaction, told to every process at commit. */
  private final Map<SpaceId, Long> claimed = new LinkedHashMap<>();

  private PgFeedCatalog feeds;
  private PgBlockLog blocks;
  private PgServerTokens serverTokens;
  private PgSubscriptions subscriptions;

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

  /** Records that this transaction claimed positions of the space up to {@code highest}. */
  void claimed(SpaceId spaceId, long highest) {
    claimed.put(spaceId, highest);
  }

  /**
   * Writes what was deferred to the end of the transaction, and queues the notification of each
   * space whose positions it claimed: PostgreSQL delivers it to every listening process when (and
   * only if) the transaction commits. Call just before commit.
   */
  void flush() {
    flush(blockCountDeltas, "UPDATE feeds SET block_count = block_count + ? WHERE feed_private_id = ?");
    flush(feedCountDeltas, "UPDATE spaces SET feed_count = feed_count + ? WHERE space_private_id = ?");
    for (Map.Entry<SpaceId, Long> claim : claimed.entrySet()) {
      Sql.list(connection, NOTIFY, rs -> null, CommitChannel.payload(state.instance(), claim.getKey(), claim.getValue()));
    }
    claimed.clear();
  }

  private void flush(Map<Long, Long> deltas, String sql) {
    for (Map.Entry<Long, Long> delta : deltas.entrySet()) {
      if (delta.getValue() != 0) {
        Sql.update(connection, sql, delta.getValue(), delta.getKey());
      }
    }
    deltas.clear();
  }
}
