package dev.feedstore.proto;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.json.MalformedJsonException;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.InvalidQueryException;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Operator;
import dev.feedstore.core.query.Order;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.RowVersion;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.core.query.result.RowUpdate;
import dev.feedstore.proto.v1.LiveChanges;
import dev.feedstore.proto.v1.LiveOrder;
import dev.feedstore.proto.v1.LivePredicate;
import dev.feedstore.proto.v1.LiveQueryRequest;
import dev.feedstore.proto.v1.LiveQuerySpec;
import dev.feedstore.proto.v1.LiveRow;
import dev.feedstore.proto.v1.LiveRowUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Maps live queries and their rows between {@code feed.v1} messages and feed-core's model: a
 * {@link LiveQueryRequest}'s query to a {@link LiveQuery} (checked: a query that cannot be
 * evaluated is an {@link InvalidQueryException} naming the clause, as the spec's fields are named:
 * {@code filter[1]}, {@code order}), and {@link Row}s and {@link ChangeBatch}es both ways. JSON
 * values travel as their canonical JSON text. Stateless and thread-safe.
 */
public final class WireQueries {
  private WireQueries() {}

  /**
   * The query of {@code request}, over its {@code space_id}.
   *
   * @throws InvalidValueException if the space id is malformed or no query is given
   * @throws InvalidQueryException naming the clause a query cannot be evaluated for
   */
  public static LiveQuery query(LiveQueryRequest request) {
    SpaceId space = WireMapping.spaceId(request.getSpaceId());
    return switch (request.getQueryCase()) {
      case SPEC -> query(space, request.getSpec());
      case TEXT -> LiveQuery.parse(request.getText(), space);
      case QUERY_NOT_SET -> throw new InvalidValueException("query",
          "must be given, as spec (the clauses) or text (the JSON or text form)", "absent");
    };
  }

  /** The query {@code spec} states, over {@code space}. */
  public static LiveQuery query(SpaceId space, LiveQuerySpec spec) {
    LiveQuery.Builder query = LiveQuery.builder(space);
    for (int i = 0; i < spec.getFeedIdsCount(); i++) {
      query.feed(WireMapping.feedId(spec.getFeedIds(i), "spec.feed_ids[" + i + "]"));
    }
    for (int i = 0; i < spec.getNamespacesCount(); i++) {
      query.namespace(WireMapping.namespace(spec.getNamespaces(i), "spec.namespaces[" + i + "]"));
    }
    if (spec.hasKey()) {
      query.key(spec.getKey());
    }
    predicates("filter", spec.getFilterList(), query::where);
    predicates("tombstone", spec.getTombstoneList(), query::tombstone);
    if (spec.getProjectionCount() > 0) {
      query.select(spec.getProjectionList().toArray(String[]::new));
    }
    if (spec.hasOrder()) {
      LiveOrder order = spec.getOrder();
      query.orderBy(order.getField(), order.getDescending() ? Order.Direction.DESC : Order.Direction.ASC);
    }
    if (spec.hasLimit()) {
      query.limit(spec.getLimit());
    }
    return query.build();
  }

  /** The clauses of a query as a spec: what {@link #query(SpaceId, LiveQuerySpec)} reads back to it. */
  public static LiveQuerySpec spec(LiveQuery query) {
    LiveQuerySpec.Builder spec = LiveQuerySpec.newBuilder();
    if (query.scope() instanceof dev.feedstore.core.Scope.Selection selection) {
      selection.feeds().forEach(feed -> spec.addFeedIds(feed.value()));
      selection.namespaces().forEach(namespace -> spec.addNamespaces(namespace.value()));
    }
    query.key().pointer().ifPresent(pointer -> spec.setKey(pointer.toString()));
    query.filter().predicates().forEach(p -> spec.addFilter(predicate(p)));
    query.tombstone().ifPresent(t -> t.predicates().forEach(p -> spec.addTombstone(predicate(p))));
    query.projection().ifPresent(p -> p.pointers().forEach(pointer -> spec.addProjection(pointer.toString())));
    query.order().ifPresent(order -> spec.setOrder(LiveOrder.newBuilder().setField(order.field().fieldName())
        .setDescending(order.direction() == Order.Direction.DESC)));
    query.limit().ifPresent(spec::setLimit);
    return spec.build();
  }

  private static LivePredicate predicate(dev.feedstore.core.query.Predicate predicate) {
    return LivePredicate.newBuilder().setField(predicate.field().fieldName())
        .setOp(predicate.operator().jsonName()).setValue(predicate.literal().toString()).build();
  }

  /** Where a predicate goes: the builder's {@code where} or {@code tombstone}. */
  private interface Clause {
    void add(String field, Operator operator, Object literal);
  }

  private static void predicates(String clause, List<LivePredicate> predicates, Clause add) {
    for (int i = 0; i < predicates.size(); i++) {
      LivePredicate predicate = predicates.get(i);
      String name = clause + "[" + i + "]";
      Operator operator = Operator.named(predicate.getOp()).orElseThrow(() -> new InvalidQueryException(name,
          predicate.getField() + " " + predicate.getOp(), "op must be one of eq ne in lt le gt ge exists contains"));
      JsonValue literal;
      try {
        literal = JsonReader.parse(predicate.getValue());
      } catch (MalformedJsonException e) {
        throw new InvalidQueryException(name, predicate.getField() + " " + predicate.getOp(),
            "value must be one JSON value, as text (a string literal in quotes): " + e.getMessage());
      }
      add.add(predicate.getField(), operator, literal);
    }
  }

  public static LiveRow toWire(Row row) {
    LiveRow.Builder wire = LiveRow.newBuilder()
        .setBlock(WireMapping.toWire(row.version().block()))
        .setPosition(row.version().position().value());
    if (row.id() instanceof DocumentId.Int key) {
      wire.setIntKey(key.value());
    } else {
      wire.setStringKey(((DocumentId.Text) row.id()).value());
    }
    row.version().receivedAt().ifPresent(wire::setReceivedAt);
    row.orderValue().ifPresent(value -> wire.setOrderValue(value.toString()));
    row.content().ifPresent(value -> wire.setContent(value.toString()));
    return wire.build();
  }

  /**
   * The row {@code wire} carries; {@code field} is where it sits, for errors.
   *
   * @throws InvalidValueException if a field is malformed, naming it
   */
  public static Row toDomain(LiveRow wire, String field) {
    DocumentId id = switch (wire.getKeyCase()) {
      case INT_KEY -> DocumentId.of(wire.getIntKey());
      case STRING_KEY -> DocumentId.of(wire.getStringKey());
      case KEY_NOT_SET -> throw new InvalidValueException(field + ".key", "must be int_key or string_key", "absent");
    };
    if (wire.getPosition() < 1) {
      throw new InvalidValueException(field + ".position", "must be >= 1", wire.getPosition());
    }
    RowVersion version = new RowVersion(WireMapping.toDomain(wire.getBlock(), field + ".block"),
        Position.of(wire.getPosition()), wire.hasReceivedAt() ? OptionalLong.of(wire.getReceivedAt())
            : OptionalLong.empty());
    return new Row(id, version, json(wire.hasOrderValue(), wire.getOrderValue(), field + ".order_value"),
        json(wire.hasContent(), wire.getContent(), field + ".content"));
  }

  private static Optional<JsonValue> json(boolean present, String text, String field) {
    if (!present) {
      return Optional.empty();
    }
    try {
      return Optional.of(JsonReader.parse(text));
    } catch (MalformedJsonException e) {
      throw new InvalidValueException(field, "must be JSON text: " + e.getMessage(), text);
    }
  }

  public static LiveChanges toWire(ChangeBatch batch) {
    LiveChanges.Builder wire = LiveChanges.newBuilder();
    batch.entered().forEach(row -> wire.addEntered(toWire(row)));
    batch.updated().forEach(update -> wire.addUpdated(LiveRowUpdate.newBuilder()
        .setPrevious(toWire(update.previous())).setCurrent(toWire(update.current()))));
    batch.left().forEach(row -> wire.addLeft(toWire(row)));
    return wire.build();
  }

  /**
   * The change batch {@code wire} carries.
   *
   * @throws InvalidValueException if a row is malformed
   * @throws IllegalArgumentException if the lists are not ordered by key or name a document twice
   */
  public static ChangeBatch toDomain(LiveChanges wire) {
    List<RowUpdate> updated = new ArrayList<>(wire.getUpdatedCount());
    for (int i = 0; i < wire.getUpdatedCount(); i++) {
      LiveRowUpdate update = wire.getUpdated(i);
      updated.add(new RowUpdate(toDomain(update.getPrevious(), "updated[" + i + "].previous"),
          toDomain(update.getCurrent(), "updated[" + i + "].current")));
    }
    return new ChangeBatch(rows(wire.getEnteredList(), "entered"), updated, rows(wire.getLeftList(), "left"));
  }

  /** The rows of a list named {@code field}. */
  public static List<Row> rows(List<LiveRow> wire, String field) {
    List<Row> rows = new ArrayList<>(wire.size());
    for (int i = 0; i < wire.size(); i++) {
      rows.add(toDomain(wire.get(i), field + "[" + i + "]"));
    }
    return rows;
  }
}
