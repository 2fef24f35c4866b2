package dev.feedstore.core.query;

import dev.feedstore.core.Scope;
import dev.feedstore.core.json.JsonBoolean;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.JsonWriter;
import java.util.StringJoiner;

/**
 * The text form of a live query, for command lines and URLs:
 *
 * <pre>{@code
 * space:work namespace:tasks key:/id where /assignee = "ana" and /done = false
 *   tombstone /deleted = true select /title, /done order /createdAt desc limit 50
 * }</pre>
 *
 * <p>The grammar (docs/live-queries.md), clauses in any order, each once (scope items repeat):
 *
 * <pre>
 * query      = { clause }
 * clause     = "space:" word | "feed:" word | "namespace:" word | "key:" field
 *            | "where" condition | "tombstone" condition | "select" field { "," field }
 *            | "order" field [ "asc" | "desc" ] | "limit" digits
 * condition  = predicate { "and" predicate }
 * predicate  = field ( ( "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" | "in" | "contains" ) json
 *                    | "exists" | "not" "exists" )
 * field      = metadata-name | "/" { pointer-char } | json-string
 * </pre>
 *
 * <p>Keywords are case-insensitive; a {@code word} runs to the next whitespace; {@code json} is one
 * JSON value (RFC 8259); a bare pointer runs to whitespace or one of <code>= ! &lt; &gt; , "</code>,
 * and any pointer can be written as a JSON string. {@link QueryTextReader} reads it; this class
 * writes it. Stateless.
 */
final class QueryText {
  private QueryText() {}

  /** The characters that end a bare pointer. */
  static final String POINTER_ENDS = "=!<>,\"";

  /** The text form of {@code query}, which {@link QueryTextReader} reads back to an equal query. */
  static String write(LiveQuery query) {
    StringJoiner text = new StringJoiner(" ");
    text.add("space:" + query.space().value());
    if (query.scope() instanceof Scope.Selection selection) {
      selection.feeds().forEach(feed -> text.add("feed:" + feed.value()));
      selection.namespaces().forEach(namespace -> text.add("namespace:" + namespace.value()));
    }
    query.key().pointer().ifPresent(pointer -> text.add("key:" + field(pointer.toString())));
    if (!query.filter().isEmpty()) {
      text.add("where " + condition(query.filter()));
    }
    query.tombstone().ifPresent(tombstone -> text.add("tombstone " + condition(tombstone)));
    query.projection().ifPresent(projection -> {
      StringJoiner pointers = new StringJoiner(", ");
      projection.pointers().forEach(pointer -> pointers.add(field(pointer.toString())));
      text.add("select " + pointers);
    });
    query.order().ifPresent(order -> text.add("order " + field(order.field().fieldName()) + " " + order.direction().word()));
    query.limit().ifPresent(limit -> text.add("limit " + limit));
    return text.toString();
  }

  /** The predicates of {@code filter} joined by {@code and}. */
  static String condition(Filter filter) {
    StringJoiner text = new StringJoiner(" and ");
    filter.predicates().forEach(predicate -> text.add(predicate(predicate)));
    return text.toString();
  }

  /** One predicate: {@code /n >= 3}, {@code /tags contains "x"}, {@code /gone not exists}. */
  static String predicate(Predicate predicate) {
    String field = field(predicate.field().fieldName());
    if (predicate.operator() == Operator.EXISTS) {
      return field + (predicate.literal() == JsonBoolean.TRUE ? " exists" : " not exists");
    }
    return field + " " + predicate.operator().symbol() + " " + JsonWriter.canonical(predicate.literal());
  }

  /** A field as the text form writes it: a name, a bare pointer, or a pointer as a JSON string. */
  static String field(String name) {
    if (MetadataField.named(name).isPresent() || isBarePointer(name)) {
      return name;
    }
    return JsonString.of(name).toJson();
  }

  private static boolean isBarePointer(String name) {
    if (name.isEmpty() || name.charAt(0) != '/') {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c <= ' ' || c == 0x7f || Character.isWhitespace(c) || POINTER_ENDS.indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }
}
