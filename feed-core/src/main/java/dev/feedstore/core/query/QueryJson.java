package dev.feedstore.core.query;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonArray;
import dev.feedstore.core.json.JsonNumber;
import dev.feedstore.core.json.JsonObject;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.json.MalformedJsonException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The JSON form of a live query (docs/live-queries.md has its schema):
 *
 * <pre>{@code
 * {"space": "work", "scope": {"namespaces": ["tasks"]}, "key": "/id",
 *  "filter": [{"field": "/assignee", "op": "eq", "value": "ana"}],
 *  "tombstone": [{"field": "/deleted", "op": "eq", "value": true}],
 *  "projection": ["/title"], "order": {"field": "/createdAt", "direction": "desc"}, "limit": 50}
 * }</pre>
 *
 * <p>Only {@code space} is required (and not even that when the caller gives the space). The
 * canonical form, which {@link #write} makes, sorts members by name, leaves out members that hold
 * their default (the whole space, the feed key, the empty filter) and writes the query's normalised
 * literals, so equal queries have equal canonical texts. Stateless.
 */
final class QueryJson {
  private QueryJson() {}

  static final Set<String> MEMBERS =
      Set.of("space", "scope", "key", "filter", "tombstone", "projection", "order", "limit");

  /** The canonical JSON object of {@code query}. */
  static JsonObject write(LiveQuery query) {
    Map<String, JsonValue> members = new LinkedHashMap<>();
    members.put("space", JsonString.of(query.space().value()));
    if (query.scope() instanceof Scope.Selection selection) {
      Map<String, JsonValue> scope = new LinkedHashMap<>();
      if (!selection.feeds().isEmpty()) {
        scope.put("feeds", strings(selection.feeds().stream().map(FeedId::value).toList()));
      }
      if (!selection.namespaces().isEmpty()) {
        scope.put("namespaces", strings(selection.namespaces().stream().map(Namespace::value).toList()));
      }
      members.put("scope", JsonObject.of(scope));
    }
    query.key().pointer().ifPresent(pointer -> members.put("key", JsonString.of(pointer.toString())));
    if (!query.filter().isEmpty()) {
      members.put("filter", predicates(query.filter()));
    }
    query.tombstone().ifPresent(tombstone -> members.put("tombstone", predicates(tombstone)));
    query.projection().ifPresent(projection ->
        members.put("projection", strings(projection.pointers().stream().map(Object::toString).toList())));
    query.order().ifPresent(order -> members.put("order", JsonObject.of(Map.of(
        "field", JsonString.of(order.field().fieldName()), "direction", JsonString.of(order.direction().word())))));
    query.limit().ifPresent(limit -> members.put("limit", JsonNumber.of(limit)));
    return JsonObject.of(members);
  }

  private static JsonArray strings(List<String> values) {
    return JsonArray.of(values.stream().map(JsonString::of).toList());
  }

  private static JsonArray predicates(Filter filter) {
    return JsonArray.of(filter.predicates().stream().map(Predicate::toJson).toList());
  }

  /**
   * The query {@code json} holds.
   *
   * @param space the space when the caller knows it; the JSON may then leave {@code space} out
   * @throws InvalidQueryException naming the member that is wrong ({@code json} when the text is not
   *     JSON, or not an object)
   */
  static LiveQuery read(String json, Optional<SpaceId> space) {
    JsonValue value;
    try {
      value = JsonReader.parse(json);
    } catch (MalformedJsonException e) {
      throw new InvalidQueryException("json", "not JSON: " + e.getMessage());
    }
    if (!(value instanceof JsonObject object)) {
      throw new InvalidQueryException("json", "a live query is a JSON object, was " + value);
    }
    for (String name : object.members().keySet()) {
      if (!MEMBERS.contains(name)) {
        throw new InvalidQueryException(name, "not a member of a live query (they are " + String.join(", ",
            List.of("space", "scope", "key", "filter", "tombstone", "projection", "order", "limit")) + ")");
      }
    }
    LiveQuery.Builder builder = LiveQuery.builder(space(object.get("space"), space));
    JsonValue scope = object.get("scope");
    if (scope != null) {
      scope(scope, builder);
    }
    JsonValue key = object.get("key");
    if (key != null) {
      builder.key(string("key", key));
    }
    predicates("filter", object.get("filter"), builder::where);
    predicates("tombstone", object.get("tombstone"), builder::tombstone);
    JsonValue projection = object.get("projection");
    if (projection != null) {
      List<JsonValue> pointers = array("projection", projection);
      for (int i = 0; i < pointers.size(); i++) {
        builder.select(string("projection[" + i + "]", pointers.get(i)));
      }
      if (pointers.isEmpty()) {
        builder.select();
      }
    }
    JsonValue order = object.get("order");
    if (order != null) {
      order(order, builder);
    }
    JsonValue limit = object.get("limit");
    if (limit != null) {
      builder.limit(limit(limit));
    }
    return builder.build();
  }

  private static SpaceId space(JsonValue value, Optional<SpaceId> given) {
    if (value == null) {
      return given.orElseThrow(() -> new InvalidQueryException("space", "is required"));
    }
    SpaceId named;
    try {
      named = SpaceId.of(string("space", value));
    } catch (InvalidValueException e) {
      throw new InvalidQueryException("space", e.getMessage());
    }
    if (given.isPresent() && !given.get().equals(named)) {
      throw new InvalidQueryException("space", "names " + named + ", but the query is for space " + given.get());
    }
    return named;
  }

  private static void scope(JsonValue value, LiveQuery.Builder builder) {
    if (!(value instanceof JsonObject object)) {
      throw new InvalidQueryException("scope", "an object of feeds and namespaces, was " + value);
    }
    for (Map.Entry<String, JsonValue> member : object.members().entrySet()) {
      String clause = "scope." + member.getKey();
      if (!member.getKey().equals("feeds") && !member.getKey().equals("namespaces")) {
        throw new InvalidQueryException(clause, "a scope has feeds and namespaces, nothing else");
      }
      List<JsonValue> values = array(clause, member.getValue());
      for (int i = 0; i < values.size(); i++) {
        String item = string(clause + "[" + i + "]", values.get(i));
        try {
          if (member.getKey().equals("feeds")) {
            builder.feed(FeedId.of(item));
          } else {
            builder.namespace(Namespace.of(item));
          }
        } catch (InvalidValueException e) {
          throw new InvalidQueryException(clause + "[" + i + "]", e.getMessage());
        }
      }
    }
    if (object.members().isEmpty()
        || object.members().values().stream().allMatch(v -> v instanceof JsonArray a && a.elements().isEmpty())) {
      builder.scope(Scope.NOTHING);
    }
  }

  /** Adds a predicate read from the JSON form; {@code LiveQuery.Builder#where} or {@code #tombstone}. */
  private interface PredicateSink {
    void add(String field, Operator operator, Object literal);
  }

  private static void predicates(String clause, JsonValue value, PredicateSink sink) {
    if (value == null) {
      return;
    }
    List<JsonValue> predicates = array(clause, value);
    for (int i = 0; i < predicates.size(); i++) {
      String name = clause + "[" + i + "]";
      if (!(predicates.get(i) instanceof JsonObject predicate)) {
        throw new InvalidQueryException(name, "a predicate is an object of field, op and value, was " + predicates.get(i));
      }
      for (String member : predicate.members().keySet()) {
        if (!Set.of("field", "op", "value").contains(member)) {
          throw new InvalidQueryException(name, "a predicate has field, op and value, not " + member);
        }
      }
      String field = string(name + ".field", required(name, "field", predicate));
      String op = string(name + ".op", required(name, "op", predicate));
      Operator operator = Operator.named(op).orElseThrow(() -> new InvalidQueryException(name,
          "unknown operator " + JsonString.of(op) + " (the operators are eq, ne, in, lt, le, gt, ge, exists, contains)"));
      sink.add(field, operator, required(name, "value", predicate));
    }
    if (predicates.isEmpty() && clause.equals("tombstone")) {
      throw new InvalidQueryException("tombstone", "must hold at least one predicate (leave it out for none)");
    }
  }

  private static void order(JsonValue value, LiveQuery.Builder builder) {
    if (!(value instanceof JsonObject object)) {
      throw new InvalidQueryException("order", "an object of field and direction, was " + value);
    }
    for (String member : object.members().keySet()) {
      if (!member.equals("field") && !member.equals("direction")) {
        throw new InvalidQueryException("order", "an order has field and direction, not " + member);
      }
    }
    String field = string("order.field", required("order", "field", object));
    JsonValue direction = object.get("direction");
    String word = direction == null ? "asc" : string("order.direction", direction);
    if (!word.equals("asc") && !word.equals("desc")) {
      throw new InvalidQueryException("order.direction", "must be asc or desc, was " + direction);
    }
    builder.orderBy(field, word.equals("asc") ? Order.Direction.ASC : Order.Direction.DESC);
  }

  private static int limit(JsonValue value) {
    OptionalLong limit = value instanceof JsonNumber number ? number.longValueExact() : OptionalLong.empty();
    if (limit.isEmpty() || limit.getAsLong() < 1 || limit.getAsLong() > Integer.MAX_VALUE) {
      throw new InvalidQueryException("limit", "must be an integer from 1 to " + Integer.MAX_VALUE + ", was " + value);
    }
    return (int) limit.getAsLong();
  }

  private static JsonValue required(String clause, String member, JsonObject object) {
    JsonValue value = object.get(member);
    if (value == null) {
      throw new InvalidQueryException(clause, member + " is required");
    }
    return value;
  }

  private static String string(String clause, JsonValue value) {
    if (!(value instanceof JsonString string)) {
      throw new InvalidQueryException(clause, "must be a string, was " + value);
    }
    return string.value();
  }

  private static List<JsonValue> array(String clause, JsonValue value) {
    if (!(value instanceof JsonArray array)) {
      throw new InvalidQueryException(clause, "must be an array, was " + value);
    }
    return new ArrayList<>(array.elements());
  }
}
