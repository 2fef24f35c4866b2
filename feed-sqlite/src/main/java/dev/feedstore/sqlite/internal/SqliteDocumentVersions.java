package dev.feedstore.sqlite.internal;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.store.DocumentVersions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A replica's blocks as live-query versions ({@link DocumentVersions}), in SQLite. The order of
 * versions is the position, then the row id ({@code block_private_id}, which grows with every
 * insert) for unpositioned blocks. A document key at a JSON pointer is looked up with SQLite's JSON
 * functions over the stored bytes, {@code json_extract(CAST(data AS TEXT), path)} where {@code
 * json_valid} accepts the content, through an index on that expression ({@link #indexKey}); the
 * caller's evaluator decides, since SQLite reads JSON more leniently (duplicate member names, any
 * depth, bytes that are not UTF-8). Pointers whose tokens are array indexes or names SQLite's paths
 * cannot quote are not looked up (a token {@code 0} is an index in an array and a name in an
 * object; a path names one of the two). Not thread-safe (as its transaction).
 */
final class SqliteDocumentVersions implements DocumentVersions {
  /** A member name SQLite's paths take as it is. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** A token RFC 6901 reads as an array index in an array. */
  private static final Pattern INDEX = Pattern.compile("0|[1-9][0-9]*");
  private static final String NEWEST_FIRST =
      " ORDER BY b.position IS NULL DESC, b.position DESC, b.block_private_id DESC";
  private static final String NEWEST_OF_FEED = SqliteBlockLog.SELECT_BLOCKS + "WHERE b.feed_private_id = ?"
      + NEWEST_FIRST + " LIMIT ? OFFSET ?";

  private final SqliteTransaction tx;

  SqliteDocumentVersions(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void begin() {
    // Any read of the file starts SQLite's read transaction, and with it the snapshot it sees.
    Sql.longValue(tx, "SELECT max(space_private_id) FROM spaces");
  }

  @Override
  public void forEach(SpaceId spaceId, Scope scope, Consumer<Version> visitor) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return;
    }
    SqliteBlockLog.ScopeSql scoped = SqliteBlockLog.ScopeSql.of(space.get(), scope);
    if (scoped.isEmpty()) {
      return;
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space.get());
    parameters.addAll(scoped.parameters());
    // Two reads in index order, rather than one sorted: positions, then the unpositioned blocks,
    // whose index entries (position NULL) follow the row id.
    for (String kind : new String[] {"b.position IS NOT NULL" + scoped.condition() + " ORDER BY b.position",
        "b.position IS NULL" + scoped.condition() + " ORDER BY b.block_private_id"}) {
      stream(SqliteBlockLog.SELECT_BLOCKS + "WHERE b.space_private_id = ? AND " + kind, parameters, visitor);
    }
  }

  @Override
  public List<Version> newestOfFeed(SpaceId spaceId, FeedId feedId, int skip, int limit) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return List.of();
    }
    List<Version> newest = new ArrayList<>();
    stream(NEWEST_OF_FEED, List.of(feed.get().privateId(), limit, skip), newest::add);
    return newest;
  }

  @Override
  public boolean looksUp(JsonPointer pointer) {
    return path(pointer).isPresent();
  }

  @Override
  public boolean indexKey(JsonPointer pointer) {
    Optional<String> path = path(pointer);
    if (path.isEmpty()) {
      return false;
    }
    Sql.update(tx, "CREATE INDEX IF NOT EXISTS " + indexName(path.get()) + " ON blocks (space_private_id, "
        + keyAt(path.get(), "data") + ")");
    return true;
  }

  @Override
  public List<Version> newestByKey(SpaceId spaceId, JsonPointer pointer, DocumentId id, int skip, int limit) {
    String path = path(pointer).orElseThrow(() -> new IllegalArgumentException("SQLite cannot look up documents"
        + " keyed by " + pointer + ": its paths cannot name an array index or quote every member name"));
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty()) {
      return List.of();
    }
    Object key = id instanceof DocumentId.Int integer ? (Object) integer.value() : ((DocumentId.Text) id).value();
    List<Version> versions = new ArrayList<>();
    stream(byKey(path), List.of(space.get(), key, limit, skip), versions::add);
    return versions;
  }

  /** The lookup of a document key at {@code path}: space, key, limit, skip. */
  static String byKey(String path) {
    return SqliteBlockLog.SELECT_BLOCKS + "WHERE b.space_private_id = ? AND " + keyAt(path, "b.data") + " = ?"
        + NEWEST_FIRST + " LIMIT ? OFFSET ?";
  }

  /**
   * The value at {@code path} in a column of JSON bytes, NULL where SQLite does not read them as
   * JSON: the same expression in the index and in the lookups, so that SQLite uses the index.
   */
  private static String keyAt(String path, String column) {
    String text = "CAST(" + column + " AS TEXT)";
    return "(CASE WHEN json_valid(" + text + ") THEN json_extract(" + text + ", '" + path.replace("'", "''")
        + "') END)";
  }

  /** The SQLite JSON path of {@code pointer}, if it has one that selects what the pointer does. */
  static Optional<String> path(JsonPointer pointer) {
    StringBuilder path = new StringBuilder("$");
    for (String token : pointer.tokens()) {
      if (PLAIN.matcher(token).matches()) {
        path.append('.').append(token);
      } else if (token.isEmpty() || INDEX.matcher(token).matches()
          || token.chars().anyMatch(c -> c < 0x20 || c == '"' || c == '\\')) {
        return Optional.empty();
      } else {
        path.append(".\"").append(token).append('"');
      }
    }
    return Optional.of(path.toString());
  }

  static String indexName(String path) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
      return "blocks_document_key_" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** Runs a query of {@link SqliteBlockLog#SELECT_BLOCKS} and hands each block to {@code visitor}, as it reads it. */
  private void stream(String sql, List<Object> parameters, Consumer<Version> visitor) {
    SqliteBlockLog blocks = (SqliteBlockLog) tx.blocks();
    PreparedStatement statement = tx.statements.get(sql);
    try {
      Sql.bind(statement, parameters.toArray());
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          FeedRow feed = tx.feedById(rs.getLong(1));
          visitor.accept(new Version(blocks.toBlock(rs), feed.namespace()));
        }
      }
    } catch (SQLException e) {
      throw new SqlFailure("reading: " + sql, e);
    }
  }
}
