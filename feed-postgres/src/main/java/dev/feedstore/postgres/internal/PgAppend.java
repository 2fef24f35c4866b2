package dev.feedstore.postgres.internal;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.store.BlockChecksum;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Sql;
import dev.feedstore.store.SqlFailure;
import dev.feedstore.store.SqlTransaction;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link dev.feedstore.core.store.AuthorityTransaction#append} on PostgreSQL: the appends of every
 * space in one call of {@code feedstore_append}, the function schema version 9 installs, with every
 * block's values in arrays, so that a group costs one round trip before its commit, whatever its
 * spaces, feeds and blocks. The function does what the views would do one statement after the
 * other (see the migration): claim, stamp, feeds, chains from each block's {@link
 * HistoryChain#head}, blocks and their counts, the commit notice. A group that needs no check of
 * the server's on the result calls it alone instead, with the feed limit, in auto-commit, and its
 * commit comes in the same round trip ({@link #runAllNew}). Stateless and thread-safe.
 */
final class PgAppend {
  /**
   * The call of the function (schema version 11, its notices sent on each space's channel since 12:
   * the third argument is the channels' prefix), whose last argument is the feed limit ({@link
   * #runAllNew}) or null.
   */
  static final Rendered CALL = Rendered.text("SELECT o_before, o_received_at, o_feeds_before, o_namespaces, o_created,"
      + " o_chains, o_held FROM feedstore_append(?::text[], ?::bigint[], ?, ?::text[], ?::integer[], ?::text[],"
      + " ?::text[], ?::integer[], ?::integer[], ?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::bigint[],"
      + " ?::bytea[], ?::bytea[], ?::integer[], ?::bigint)");
  /** The SQLSTATE with which the function refuses a group when given a feed limit, storing nothing. */
  static final String NOT_ALL_NEW = "FS001";

  private PgAppend() {}

  static List<SpaceAppend.Stored> run(SqlTransaction tx, List<SpaceAppend> appends, PostgresDialect dialect) {
    return appends.isEmpty() ? List.of() : call(tx.sql().prepared(CALL), appends, dialect, null);
  }

  /**
   * {@link dev.feedstore.core.store.AuthorityStore#appendAllNew} with {@code sql} on a connection in
   * auto-commit: the call is the group's transaction, so it commits in the call's round trip, or,
   * when a key was held or a space passed {@code feedsPerSpace} feeds, rolls back whole.
   *
   * @return empty when the function refused the group, having stored nothing
   */
  static Optional<List<SpaceAppend.Stored>> runAllNew(Sql sql, List<SpaceAppend> appends, PostgresDialect dialect,
      long feedsPerSpace) {
    if (appends.isEmpty()) {
      return Optional.of(List.of());
    }
    try {
      return Optional.of(call(sql.prepared(CALL), appends, dialect, feedsPerSpace));
    } catch (SqlFailure e) {
      if (NOT_ALL_NEW.equals(e.sqlException().getSQLState())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Runs {@code call} with the group's arrays and the feed limit (null: none). */
  private static List<SpaceAppend.Stored> call(PreparedStatement call, List<SpaceAppend> appends,
      PostgresDialect dialect, Long feedsPerSpace) {
    int feeds = 0;
    int blocks = 0;
    for (SpaceAppend append : appends) {
      feeds += append.feeds().size();
      blocks += append.blocks().size();
    }
    String[] spaceIds = new String[appends.size()];
    long[] now = new long[appends.size()];
    String[] senders = new String[appends.size()];
    int[] feedCounts = new int[appends.size()];
    int[] blockCounts = new int[appends.size()];
    String[] feedIds = new String[feeds];
    String[] namespaces = new String[feeds];
    int[] blockFeeds = new int[blocks];
    long[] sequences = new long[blocks];
    String[] actors = new String[blocks];
    Long[] prevSequences = new Long[blocks];
    String[] prevActors = new String[blocks];
    long[] timestamps = new long[blocks];
    byte[][] data = new byte[blocks][];
    byte[][] heads = new byte[blocks][];
    int[] checksums = new int[blocks];
    int f = 0;
    int b = 0;
    for (int s = 0; s < appends.size(); s++) {
      SpaceAppend append = appends.get(s);
      spaceIds[s] = append.spaceId().value();
      now[s] = append.nowMillis();
      senders[s] = dialect.commitSender(append.spaceId());
      feedCounts[s] = append.feeds().size();
      blockCounts[s] = append.blocks().size();
      Map<FeedId, Integer> place = new LinkedHashMap<>();
      for (Map.Entry<FeedId, Optional<Namespace>> feed : append.feeds().entrySet()) {
        place.put(feed.getKey(), place.size() + 1);
        feedIds[f] = feed.getKey().value();
        namespaces[f++] = feed.getValue().map(Namespace::value).orElse(null);
      }
      for (Block block : append.blocks()) {
        blockFeeds[b] = place.get(block.feedId());
        sequences[b] = block.sequence().value();
        actors[b] = block.actorId().value();
        prevSequences[b] = block.predecessor().map(p -> p.sequence().value()).orElse(null);
        prevActors[b] = block.predecessor().map(p -> p.actorId().value()).orElse(null);
        timestamps[b] = block.timestamp();
        data[b] = block.data().toByteArray();
        heads[b] = HistoryChain.head(block);
        checksums[b] = BlockChecksum.of(block, data[b]);
        b++;
      }
    }
    try {
      Object[] parameters = {spaceIds, now, CommitChannel.PREFIX, senders, feedCounts, feedIds, namespaces,
          blockCounts, blockFeeds, sequences, actors, prevSequences, prevActors, timestamps, data, heads, checksums};
      for (int i = 0; i < parameters.length; i++) {
        call.setObject(i + 1, parameters[i]);
      }
      if (feedsPerSpace == null) {
        call.setNull(parameters.length + 1, Types.BIGINT);
      } else {
        call.setLong(parameters.length + 1, feedsPerSpace);
      }
      List<SpaceAppend.Stored> stored = new ArrayList<>(appends.size());
      try (ResultSet rs = call.executeQuery()) {
        for (SpaceAppend append : appends) {
          if (!rs.next()) {
            throw new IllegalStateException("feedstore_append answered for " + stored.size() + " of "
                + appends.size() + " spaces");
          }
          stored.add(stored(append, rs));
        }
      }
      return stored;
    } catch (SQLException e) {
      throw new SqlFailure("appending blocks", e);
    }
  }

  /** What the function did for {@code append}, from its row. */
  private static SpaceAppend.Stored stored(SpaceAppend append, ResultSet rs) throws SQLException {
    long before = rs.getLong(1);
    long receivedAt = rs.getLong(2);
    long feedsBefore = rs.getLong(3);
    OptionalLong counted = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(feedsBefore);
    String[] namespaces = (String[]) array(rs, 4);
    Boolean[] created = (Boolean[]) array(rs, 5);
    Long[] chains = (Long[]) array(rs, 6);
    int held = rs.getInt(7);
    Map<FeedId, Optional<Namespace>> stored = new LinkedHashMap<>();
    List<FeedId> made = new ArrayList<>();
    int i = 0;
    for (FeedId feed : append.feeds().keySet()) {
      stored.put(feed, Optional.ofNullable(namespaces[i]).map(Namespace::new));
      if (created[i]) {
        made.add(feed);
      }
      i++;
    }
    long[] links = null;
    if (chains != null) {
      links = new long[chains.length];
      for (int c = 0; c < links.length; c++) {
        links[c] = chains[c];
      }
    }
    return new SpaceAppend.Stored(stored, made, counted, Position.of(before), receivedAt, links, held);
  }

  private static Object array(ResultSet rs, int column) throws SQLException {
    Array array = rs.getArray(column);
    return array == null ? null : array.getArray();
  }
}
