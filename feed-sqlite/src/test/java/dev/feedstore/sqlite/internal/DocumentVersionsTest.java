package dev.feedstore.sqlite.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.store.DocumentVersions;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.sqlite.SqliteSettings;
import dev.feedstore.store.sqlite.SchemaMigrator;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica's blocks as live-query versions: in the order of versions (positions, then the order
 * unpositioned blocks were stored), and looked up by a document key through SQLite's JSON functions
 * and an index on them, never leaving out a block the strict evaluator would take for a version.
 */
class DocumentVersionsTest {
  private static final SpaceId SPACE = SpaceId.of("s");
  private static final JsonPointer ID = JsonPointer.parse("/id");

  @TempDir Path dir;
  private SqliteStore store;
  private final FeedId feed = TestBlocks.feedId();
  private final FeedId other = TestBlocks.feedId();
  private long sequence;

  @BeforeEach
  void open() {
    store = SqliteStore.open(dir.resolve("replica.db"), SqliteSettings.DEFAULTS, SchemaMigrator.builtIn());
    store.write(tx -> {
      tx.feeds().create(SPACE, feed, Optional.of(Namespace.of("tasks")));
      tx.feeds().create(SPACE, other, Optional.empty());
      return null;
    });
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void versionsArePositionsThenUnpositionedBlocksInTheOrderTheyWereStored() {
    Block third = insert(other, "{\"id\":1}", Position.NONE);
    Block fourth = insert(feed, "{\"id\":1}", Position.NONE);
    Block second = insert(feed, "{\"id\":1}", Position.of(7));
    Block first = insert(other, "not json", Position.of(2));

    assertEquals(List.of(first, second, third, fourth), keys(Scope.WHOLE_SPACE));
    assertEquals(List.of(second, fourth), keys(Scope.namespace(Namespace.of("tasks"))));
    assertEquals(List.of(fourth, second), store.read(tx -> tx.versions().newestOfFeed(SPACE, feed, 0, 5))
        .stream().map(DocumentVersions.Version::block).toList());
    assertEquals(List.of(fourth, third, second), byKey(DocumentId.of(1)), "newest first");
  }

  @Test
  void aLookupByKeyFindsEveryBlockTheEvaluatorWouldTakeForAVersionOfTheDocument() {
    assertTrue((boolean) store.write(tx -> tx.versions().indexKey(ID)));
    Block plain = insert(feed, "{\"id\":7}", Position.NONE);
    Block escapedName = insert(feed, "{\"\\u0069d\": 7}", Position.NONE);
    Block minusZero = insert(feed, "{\"id\":-0}", Position.NONE);
    Block text = insert(feed, "{\"id\":\"7\"}", Position.NONE);
    Block escapedText = insert(feed, "{\"id\":\"\\u0037\"}", Position.NONE);
    insert(feed, "not json {\"id\":7}", Position.NONE);
    insert(feed, "[7]", Position.NONE);

    assertEquals(List.of(escapedName, plain), byKey(DocumentId.of(7)), "member names compare unescaped");
    assertEquals(List.of(minusZero), byKey(DocumentId.of(0)));
    assertEquals(List.of(escapedText, text), byKey(DocumentId.of("7")));
  }

  @Test
  void aKeyLookupReadsTheIndexNotTheSpace() throws Exception {
    assertTrue((boolean) store.write(tx -> tx.versions().indexKey(ID)));
    String path = SqliteDocumentVersions.path(ID).orElseThrow();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("replica.db"));
        Statement statement = connection.createStatement();
        ResultSet plan = statement.executeQuery("EXPLAIN QUERY PLAN "
            + SqliteDocumentVersions.byKey(path).sql().replace("?", "1"))) {
      StringBuilder steps = new StringBuilder();
      while (plan.next()) {
        steps.append(plan.getString("detail")).append('\n');
      }
      assertTrue(steps.toString().contains("USING INDEX " + SqliteDocumentVersions.indexName(path)), steps.toString());
    }
  }

  /** The lookup and the index are one expression, as SQLite must see them to use the index. */
  @Test
  void theLookupAndTheIndexAreRenderedWithOneExpression() {
    String path = SqliteDocumentVersions.path(ID).orElseThrow();
    String expression = "case when json_valid(cast(data as clob)) = 1 then json_extract(cast(data as clob), '$.id') end";
    assertEquals("create index if not exists " + SqliteDocumentVersions.indexName(path)
        + " on blocks(space_private_id, " + expression + ")", SqliteDocumentVersions.index(path).sql());
    assertTrue(SqliteDocumentVersions.byKey(path).sql().contains(expression.replace("data", "b.data") + " = ?"),
        SqliteDocumentVersions.byKey(path).sql());
  }

  @Test
  void pointersSqlitePathsCannotNameAreNotLookedUp() {
    assertEquals(Optional.of("$.id"), SqliteDocumentVersions.path(ID));
    assertEquals(Optional.of("$.a.\"b c\".\"x-y\""), SqliteDocumentVersions.path(JsonPointer.parse("/a/b c/x-y")));
    assertEquals(Optional.of("$"), SqliteDocumentVersions.path(JsonPointer.WHOLE));
    for (String pointer : new String[] {"/0", "/a/12", "/", "/a\"b", "/a\\b"}) {
      assertEquals(Optional.empty(), SqliteDocumentVersions.path(JsonPointer.parse(pointer)), pointer);
    }
    assertFalse((boolean) store.write(tx -> tx.versions().indexKey(JsonPointer.parse("/items/0"))));
  }

  private Block insert(FeedId into, String json, Position position) {
    Block block = new Block(new BlockKey(into, ActorId.of("a"), new Sequence(sequence++)), Optional.empty(), 1,
        BlockData.utf8(json), position);
    store.write(tx -> tx.blocks().insert(SPACE, block));
    return block;
  }

  private List<Block> keys(Scope scope) {
    List<Block> blocks = new ArrayList<>();
    store.read(tx -> {
      tx.versions().forEach(SPACE, scope, version -> blocks.add(version.block()));
      return null;
    });
    return blocks;
  }

  private List<Block> byKey(DocumentId id) {
    return store.read(tx -> tx.versions().newestByKey(SPACE, ID, id, 0, 100)).stream()
        .map(DocumentVersions.Version::block).toList();
  }
}
