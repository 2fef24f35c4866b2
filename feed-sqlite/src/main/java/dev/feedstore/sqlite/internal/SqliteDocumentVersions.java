package dev.feedstore.sqlite.internal;

import static dev.feedstore.store.SqlBlockLog.B;
import static dev.feedstore.store.schema.Tables.BLOCKS;
import static dev.feedstore.store.schema.Tables.SPACES;
import static org.jooq.impl.DSL.cast;
import static org.jooq.impl.DSL.function;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.max;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.when;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.store.FeedRow;
import dev.feedstore.store.Params;
import dev.feedstore.store.Rendered;
import dev.feedstore.store.Rendering;
import dev.feedstore.store.ScopedQuery;
import dev.feedstore.store.SqlBlockLog;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.SortField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * A replica's blocks as live-query versions ({@link DocumentVersions}), in SQLite. The order of
 * versions is the position, then the row id ({@code block_private_id}, which grows with every
 * insert) for unpositioned blocks. A document key at a JSON pointer is looked up with SQLite's JSON
 * functions over the stored bytes, {@code json_extract(CAST(data AS TEXT), path)} where {@code
 * json_valid} accepts the content, through an index on that expression ({@link #indexKey}); the
 * caller's evaluator decides, since SQLite reads JSON more leniently (duplicate member names, any
 * depth, bytes that are not UTF-8). Pointers whose tokens are array indexes or names SQLite's paths
 * cannot quote are not looked up (a token {@code 0} is an index in an array and a name in an
 * object; a path names one of the two). Statements are rendered once (a lookup once per path). Not
 * thread-safe (as its transaction).
 */
final class SqliteDocumentVersions implements DocumentVersions {
  /** A member name SQLite's paths take as it is. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** A token RFC 6901 reads as an array index in an array. */
  private static final Pattern INDEX = Pattern.compile("0|[1-9][0-9]*");
  private static final Param<Integer> SKIP = DSL.param("skip", SQLDataType.INTEGER);
  private static final Param<Object> KEY = DSL.param("key", Object.class);
  private static final Queries QUERIES = new Queries(Rendering.of(SqliteDialect.INSTANCE.family()));

  /** The statements, rendered once; those of a key once per path. */
  private static final class Queries {
    /** Newest first in the order of versions: unpositioned blocks (NULL) by row id, then positions. */
    private static final List<SortField<?>> NEWEST_FIRST = List.of(B.POSITION.desc().nullsFirst(),
        B.BLOCK_PRIVATE_ID.desc());
    /**
     * The same order, written so that no index gives it: a lookup by key then reads the key's index
     * and sorts the few rows it finds, rather than walking the space's positions in order.
     */
    private static final List<SortField<?>> NEWEST_FIRST_SORTED = List.of(DSL.field(B.POSITION.isNull()).desc(),
        B.POSITION.desc(), B.BLOCK_PRIVATE_ID.desc());

    final Rendered begin;
    final ScopedQuery positioned;
    final ScopedQuery unpositioned;
    final Rendered newestOfFeed;
    private final DSLContext sql;
    private final Map<String, Rendered> byKey = new ConcurrentHashMap<>();
    private final Map<String, Rendered> index = new ConcurrentHashMap<>();

    Queries(DSLContext sql) {
      this.sql = sql;
      SqliteDialect dialect = SqliteDialect.INSTANCE;
      begin = Rendered.of(sql.select(max(SPACES.SPACE_PRIVATE_ID)).from(SPACES));
      // Two reads in index order, rather than one sorted: positions, then the unpositioned blocks,
      // whose entries in (space, position) follow the row id.
      positioned = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(SqlBlockLog.selectBlocks(sql, dialect)
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.isNotNull()).and(scope).orderBy(B.POSITION),
          Params.SPACE, scope));
      unpositioned = new ScopedQuery(dialect, B.FEED_PRIVATE_ID, scope -> Rendered.of(SqlBlockLog.selectBlocks(sql,
          dialect).where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(B.POSITION.isNull()).and(scope)
          .orderBy(B.BLOCK_PRIVATE_ID), Params.SPACE, scope));
      newestOfFeed = Rendered.of(SqlBlockLog.selectBlocks(sql, dialect).where(B.FEED_PRIVATE_ID.eq(Params.FEED))
          .orderBy(NEWEST_FIRST).limit(Params.LIMIT).offset(SKIP), Params.FEED, Params.LIMIT, SKIP);
    }

    /** The blocks of a space whose value at {@code path} equals the key, newest first: space, key, limit, skip. */
    Rendered byKey(String path) {
      return byKey.computeIfAbsent(path, p -> Rendered.of(SqlBlockLog.selectBlocks(sql, SqliteDialect.INSTANCE)
          .where(B.SPACE_PRIVATE_ID.eq(Params.SPACE)).and(keyAt(p, B.DATA).eq(KEY)).orderBy(NEWEST_FIRST_SORTED)
          .limit(Params.LIMIT).offset(SKIP), Params.SPACE, KEY, Params.LIMIT, SKIP));
    }

    /** The index of the space's blocks by the value at {@code path}: the same expression as {@link #byKey}'s. */
    Rendered index(String path) {
      return index.computeIfAbsent(path, p -> Rendered.of(sql.createIndexIfNotExists(indexName(p))
          .on(BLOCKS, BLOCKS.SPACE_PRIVATE_ID, keyAt(p, DSL.field(name(BLOCKS.DATA.getName()), SQLDataType.BLOB)))));
    }
  }

  private final SqliteTransaction tx;

  SqliteDocumentVersions(SqliteTransaction tx) {
    this.tx = tx;
  }

  @Override
  public void begin() {
    // Any read of the file starts SQLite's read transaction, and with it the snapshot it sees.
    tx.sql().longValue(QUERIES.begin);
  }

  @Override
  public void forEach(SpaceId spaceId, Scope scope, Consumer<Version> visitor) {
    Optional<Long> space = tx.findSpace(spaceId);
    if (space.isEmpty() || scope.isEmpty()) {
      return;
    }
    for (ScopedQuery statement : List.of(QUERIES.positioned, QUERIES.unpositioned)) {
      List<Object> parameters = new ArrayList<>();
      parameters.add(space.get());
      parameters.addAll(statement.parameters(space.get(), scope));
      stream(spaceId, statement.statement(scope), visitor, parameters.toArray());
    }
  }

  @Override
  public List<Version> newestOfFeed(SpaceId spaceId, FeedId feedId, int skip, int limit) {
    Optional<FeedRow> feed = tx.findFeed(spaceId, feedId);
    if (feed.isEmpty()) {
      return List.of();
    }
    List<Version> newest = new ArrayList<>();
    stream(spaceId, QUERIES.newestOfFeed, newest::add, feed.get().privateId(), limit, skip);
    return newest;
  }

  @Override
  public boolean looksUp(JsonPointer pointer) {
    return path(pointer).isPresent();
  }

  @Override
  public boolean indexKey(JsonPointer pointer) {
    Optional<String> path = path(pointer);
    path.ifPresent(p -> tx.sql().update(QUERIES.index(p)));
    return path.isPresent();
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
    stream(spaceId, QUERIES.byKey(path), versions::add, space.get(), key, limit, skip);
    return versions;
  }

  /** The lookup of a document key at {@code path}: space, key, limit, skip. */
  static Rendered byKey(String path) {
    return QUERIES.byKey(path);
  }

  /** The index that serves {@link #byKey}. */
  static Rendered index(String path) {
    return QUERIES.index(path);
  }

  /**
   * The value at {@code path} in a column of JSON bytes, NULL where SQLite does not read them as
   * JSON: one expression for the index and the lookups, so that SQLite uses the index.
   */
  private static Field<Object> keyAt(String path, Field<byte[]> data) {
    Field<String> text = cast(data, SQLDataType.CLOB);
    return when(function("json_valid", SQLDataType.INTEGER, text).eq(inline(1)),
        function("json_extract", Object.class, text, inline(path)));
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

  /** Runs a statement of {@link SqlBlockLog#selectBlocks} and hands each block to {@code visitor}, as it reads it. */
  private void stream(SpaceId spaceId, Rendered statement, Consumer<Version> visitor, Object... parameters) {
    SqliteReplicaBlockLog blocks = (SqliteReplicaBlockLog) tx.blocks();
    tx.sql().forEach(statement, rs -> {
      FeedRow feed = tx.feedById(rs.getLong(1));
      visitor.accept(new Version(blocks.block(spaceId, rs), feed.namespace()));
    }, parameters);
  }
}
