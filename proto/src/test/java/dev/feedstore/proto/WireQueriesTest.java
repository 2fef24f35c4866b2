package dev.feedstore.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.InvalidQueryException;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Operator;
import dev.feedstore.core.query.Order;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.RowVersion;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.RowUpdate;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.LiveOrder;
import dev.feedstore.proto.v1.LivePredicate;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.proto.v1.LiveQuerySpec;
import dev.feedstore.proto.v1.LiveRow;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WireQueriesTest {
  private static final SpaceId SPACE = new SpaceId("work");
  private static final FeedId FEED = TestBlocks.feedId();

  private static final LiveQuery TASKS = LiveQuery.builder(SPACE)
      .namespace("tasks")
      .feed(FEED)
      .key("/id")
      .where("/assignee", Operator.EQ, "ana")
      .where("/size", Operator.IN, List.of(1, 2.5))
      .tombstone("/deleted", Operator.EQ, true)
      .select("/title", "/done")
      .orderBy("/createdAt", Order.Direction.DESC)
      .limit(50)
      .build();

  @Test
  void aQueryAsASpecReadsBackToTheSameQuery() {
    LiveQuerySpec spec = WireQueries.spec(TASKS);
    assertEquals(TASKS, WireQueries.query(SPACE, spec));
    assertEquals(TASKS, WireQueries.query(request().setSpec(spec).build()));
  }

  @Test
  void eitherWrittenFormIsReadOverTheRequestsSpace() {
    assertEquals(TASKS, WireQueries.query(request().setText(TASKS.toJson()).build()));
    assertEquals(TASKS, WireQueries.query(request().setText(TASKS.toText().replace("space:work ", "")).build()));
  }

  @Test
  void aQueryThatCannotBeEvaluatedIsRefusedNamingItsClause() {
    InvalidQueryException op = assertThrows(InvalidQueryException.class, () -> WireQueries.query(request()
        .setSpec(LiveQuerySpec.newBuilder().addFilter(predicate("/a", "eq", "1")).addFilter(predicate("/b", "like", "1")))
        .build()));
    assertEquals("filter[1]", op.clause());
    assertTrue(op.getMessage().contains("op must be one of"), op.getMessage());

    InvalidQueryException literal = assertThrows(InvalidQueryException.class, () -> WireQueries.query(request()
        .setSpec(LiveQuerySpec.newBuilder().addTombstone(predicate("/deleted", "eq", "yes"))).build()));
    assertEquals("tombstone[0]", literal.clause());
    assertTrue(literal.getMessage().contains("value must be one JSON value"), literal.getMessage());

    InvalidQueryException order = assertThrows(InvalidQueryException.class, () -> WireQueries.query(request()
        .setSpec(LiveQuerySpec.newBuilder().setOrder(LiveOrder.newBuilder().setField("positioned"))).build()));
    assertEquals("order", order.clause());

    InvalidQueryException otherSpace = assertThrows(InvalidQueryException.class, () -> WireQueries.query(request()
        .setText("space:play where /a = 1").build()));
    assertEquals("space", otherSpace.clause());

    InvalidValueException none = assertThrows(InvalidValueException.class, () -> WireQueries.query(request().build()));
    assertEquals("query", none.field());
    InvalidValueException feed = assertThrows(InvalidValueException.class, () -> WireQueries.query(request()
        .setSpec(LiveQuerySpec.newBuilder().addFeedIds("not-a-ulid")).build()));
    assertEquals("spec.feed_ids[0]", feed.field());
  }

  @Test
  void rowsAndChangesRoundTripWithTheirJsonExactly() {
    Row seven = row(DocumentId.of(7), 3, "{\"title\":\"x\",\"n\":1.50}", Optional.of("12"));
    Row text = new Row(DocumentId.of("7"), new RowVersion(TestBlocks.key(FEED, "a", 4), Position.of(9), OptionalLong.empty()), Optional.empty(), Optional.empty());
    Row sevenLater = row(DocumentId.of(7), 5, "{\"title\":\"y\"}", Optional.empty());
    assertEquals(seven, WireQueries.toDomain(WireQueries.toWire(seven), "row"));
    assertEquals(text, WireQueries.toDomain(WireQueries.toWire(text), "row"));

    ChangeBatch batch = new ChangeBatch(List.of(text), List.of(new RowUpdate(seven, sevenLater)), List.of());
    assertEquals(batch, WireQueries.toDomain(WireQueries.toWire(batch)));
  }

  @Test
  void aMalformedRowIsRefusedNamingItsField() {
    LiveRow wire = WireQueries.toWire(row(DocumentId.of(1), 2, "[]", Optional.empty())).toBuilder()
        .setContent("[").build();
    InvalidValueException e = assertThrows(InvalidValueException.class, () -> WireQueries.toDomain(wire, "rows[3]"));
    assertEquals("rows[3].content", e.field());
  }

  private static Row row(DocumentId id, long position, String content, Optional<String> order) {
    return new Row(id, new RowVersion(TestBlocks.key(FEED, "a", position),
        Position.of(position), OptionalLong.of(1_000 + position)), order.map(JsonReader::parse),
        Optional.of(JsonReader.parse(content)));
  }

  private static LivePredicate predicate(String field, String op, String value) {
    return LivePredicate.newBuilder().setField(field).setOp(op).setValue(value).build();
  }

  private static LiveQueryRequest.Builder request() {
    return LiveQueryRequest.newBuilder().setRequestId("r").setSpaceId(SPACE.value());
  }
}
