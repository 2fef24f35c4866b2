package dev.feedstore.client.testing;

import dev.feedstore.client.RefusedBlock;
import dev.feedstore.client.Replica;
import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A live query evaluated from scratch over a replica's file, as the reference its incremental
 * result must equal: the file read on a connection of its own (not through the store), the order
 * of versions written here again in SQL (position, then the row id of unpositioned blocks), blocks
 * sync refuses left out, {@link LiveQuery#evaluate} over the last version of each document.
 * Stateless.
 */
public final class FromScratch {
  private static final String VERSIONS = "SELECT f.feed_id, f.feed_namespace, b.position, b.sequence, b.actor_id,"
      + " b.prev_sequence, b.prev_actor_id, b.timestamp, b.data, b.received_at"
      + " FROM blocks b JOIN feeds f ON f.feed_private_id = b.feed_private_id"
      + " JOIN spaces s ON s.space_private_id = b.space_private_id WHERE s.space_id = ?"
      + " ORDER BY b.position IS NULL, b.position, b.block_private_id";

  private FromScratch() {}

  /**
   * The rows of {@code query} over what {@code replica}'s file holds now.
   *
   * @param evaluatedAt the time of evaluation: what the replica's clock said when its live query
   *     evaluated the pending versions
   */
  public static List<Row> rows(Replica replica, LiveQuery query, long evaluatedAt) {
    return rows(replica, List.of(query), evaluatedAt).get(0);
  }

  /** The rows of each of {@code queries} (all of one space), from one read of the file. */
  public static List<List<Row>> rows(Replica replica, List<LiveQuery> queries, long evaluatedAt) {
    SpaceId space = queries.get(0).space();
    Set<BlockKey> refused = replica.refused(space).stream().map(RefusedBlock::key).collect(Collectors.toSet());
    List<ParsedBlock> versions = versions(replica.file(), space, evaluatedAt);
    List<List<Row>> rows = new java.util.ArrayList<>();
    for (LiveQuery query : queries) {
      Map<DocumentId, ParsedBlock> current = new LinkedHashMap<>();
      for (ParsedBlock version : versions) {
        if (!refused.contains(version.block().key())) {
          query.documentOf(version).ifPresent(id -> current.put(id, version));
        }
      }
      rows.add(query.evaluate(current.values()));
    }
    return rows;
  }

  private static List<ParsedBlock> versions(Path file, SpaceId space, long evaluatedAt) {
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:file:" + file + "?mode=ro");
        PreparedStatement statement = connection.prepareStatement(VERSIONS)) {
      statement.setString(1, space.value());
      List<ParsedBlock> versions = new java.util.ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          versions.add(ParsedBlock.of(block(rs), Optional.ofNullable(rs.getString(2)).map(Namespace::of),
              evaluatedAt));
        }
      }
      return versions;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  private static Block block(ResultSet rs) throws SQLException {
    long position = rs.getLong(3);
    String prevActor = rs.getString(7);
    Optional<Predecessor> predecessor = prevActor == null ? Optional.empty()
        : Optional.of(new Predecessor(ActorId.of(prevActor), new Sequence(rs.getLong(6))));
    long receivedAt = rs.getLong(10);
    OptionalLong received = rs.wasNull() || position == 0 ? OptionalLong.empty() : OptionalLong.of(receivedAt);
    byte[] data = rs.getBytes(9);
    return new Block(new BlockKey(FeedId.of(rs.getString(1)), ActorId.of(rs.getString(5)), new Sequence(rs.getLong(4))),
        predecessor, rs.getLong(8), BlockData.copyOf(data == null ? new byte[0] : data), Position.of(position), received);
  }
}
