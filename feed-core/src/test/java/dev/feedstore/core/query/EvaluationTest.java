package dev.feedstore.core.query;

import static dev.feedstore.core.testing.TestVersions.pending;
import static dev.feedstore.core.testing.TestVersions.positioned;
import static dev.feedstore.core.testing.TestVersions.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.core.testing.TestVersions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link LiveQuery#evaluate}: the from-scratch result, and the shape of its rows. */
class EvaluationTest {
  private static final FeedId A = TestBlocks.feedId();
  private static final FeedId B = TestBlocks.feedId();

  @Test
  void aRowCarriesKeyVersionOrderValueAndProjection() {
    LiveQuery query = LiveQuery.parse("space:w key:/id select /title, /missing, /tags/1 order /createdAt desc");
    ParsedBlock version = positioned(A, 12, 3400, "{\"id\":\"t1\",\"title\":\"Buy\",\"tags\":[\"a\",\"b\"],\"createdAt\":5}");
    Row row = query.evaluate(List.of(version)).get(0);
    assertEquals(DocumentId.of("t1"), row.id());
    assertEquals(new RowVersion(version.block().key(), Position.of(12), OptionalLong.of(3400)), row.version());
    assertEquals(Optional.of(JsonValue.of(5)), row.orderValue());
    assertEquals(Optional.of(JsonReader.parse("{\"/title\":\"Buy\",\"/tags/1\":\"b\"}")), row.content(),
        "an object from each pointer to its value, those that resolve to nothing left out");
  }

  @Test
  void withoutProjectionTheRowCarriesTheWholeContentAndNothingForBlocksThatAreNotJson() {
    LiveQuery query = LiveQuery.parse("space:w");
    List<Row> rows = query.evaluate(List.of(positioned(A, 1, 1, "[1, 2.50]"), positioned(B, 2, 2, "[1, 2.50")));
    Row json = rows.stream().filter(r -> r.id().equals(DocumentId.of(A.value()))).findFirst().orElseThrow();
    Row notJson = rows.stream().filter(r -> r.id().equals(DocumentId.of(B.value()))).findFirst().orElseThrow();
    assertEquals(Optional.of(JsonReader.parse("[1,2.5]")), json.content());
    assertEquals(Optional.empty(), notJson.content());
  }

  @Test
  void aPendingVersionIsMarkedPendingAndOrdersByItsTimeOfEvaluation() {
    LiveQuery query = LiveQuery.parse("space:w order receivedAt desc");
    ParsedBlock old = positioned(A, 7, 999_999, "{}");
    ParsedBlock mine = pending(B, "{}");
    List<Row> rows = query.evaluate(List.of(old, mine));
    assertEquals(DocumentId.of(B.value()), rows.get(0).id(), "a pending version sorts as the newest");
    assertTrue(rows.get(0).version().pending());
    assertEquals(OptionalLong.empty(), rows.get(0).version().receivedAt());
    assertEquals(Optional.of(JsonNumber.of(TestVersions.NOW)), rows.get(0).orderValue());
    assertEquals(Optional.of(JsonNumber.of(999_999)), rows.get(1).orderValue());
  }

  @Test
  void filterTombstoneOrderAndLimitDecideTheRows() {
    LiveQuery query = LiveQuery.parse("space:w key:/id where /open = true tombstone /deleted = true"
        + " order /rank asc limit 2");
    List<ParsedBlock> versions = List.of(
        positioned(A, 1, 1, "{\"id\":1,\"open\":true,\"rank\":3}"),
        positioned(A, 2, 2, "{\"id\":2,\"open\":false,\"rank\":1}"),
        positioned(A, 3, 3, "{\"id\":3,\"open\":true,\"rank\":1,\"deleted\":true}"),
        positioned(B, 4, 4, "{\"id\":4,\"open\":true,\"rank\":2}"),
        positioned(B, 5, 5, "{\"id\":5,\"open\":true}"),
        positioned(B, 6, 6, "{\"id\":6,\"open\":true,\"rank\":\"x\"}"));
    assertEquals(List.of(DocumentId.of(4), DocumentId.of(1)), ids(query.evaluate(versions)));
    LiveQuery unlimited = LiveQuery.parse("space:w key:/id where /open = true tombstone /deleted = true order /rank");
    assertEquals(List.of(DocumentId.of(4), DocumentId.of(1), DocumentId.of(6), DocumentId.of(5)),
        ids(unlimited.evaluate(versions)), "numbers, then strings, then missing values");
  }

  @Test
  void currentVersionsMustBeOnePerDocumentInsideTheScope() {
    LiveQuery query = LiveQuery.parse("space:w namespace:tasks key:/id");
    assertThrows(IllegalArgumentException.class, () -> query.evaluate(List.of(
        version(A, "tasks", 1, 1, "{\"id\":1}"), version(B, "tasks", 2, 2, "{\"id\":1}"))));
    assertThrows(IllegalArgumentException.class, () -> query.evaluate(List.of(version(A, "notes", 1, 1, "{\"id\":1}"))));
    assertThrows(IllegalArgumentException.class, () -> query.evaluate(List.of(version(A, "tasks", 1, 1, "{\"id\":1.5}"))));
  }

  @Test
  void aBlockIsReadAsJsonOnceForEveryPredicateOfEveryQuery() {
    ParsedBlock version = positioned(A, 1, 1, "{\"id\":1,\"a\":{\"b\":[1,2]},\"s\":\"x\"}");
    List<LiveQuery> queries = List.of(
        LiveQuery.parse("space:w key:/id where /a/b contains 1 and /s = \"x\" and /a exists order /s select /a"),
        LiveQuery.parse("space:w where /s != \"y\" tombstone /a/b/0 = 5"),
        LiveQuery.parse("space:w key:/s where /a/b in [[1,2]]"));
    JsonValue first = version.json().orElseThrow();
    for (LiveQuery query : queries) {
      assertEquals(1, query.evaluate(List.of(version)).size());
    }
    assertSame(first, version.json().orElseThrow(), "the same parsed value, not a second reading");
  }

  private static List<DocumentId> ids(List<Row> rows) {
    return rows.stream().map(Row::id).toList();
  }
}
