package dev.feedstore.core.query;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonBoolean;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonString;
import dev.feedstore.core.json.MalformedJsonException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads the text form of a live query ({@link QueryText} has its grammar). Its position moves over
 * the UTF-8 bytes of the text, so JSON literals are read by {@link JsonReader} where they stand.
 * Clauses may come in any order, but the builder needs the space first, so each clause read
 * becomes an action applied to the builder once the whole text is read. Not thread-safe: one
 * reader per text.
 */
final class QueryTextReader {
  /**
   * The query the text form {@code text} holds.
   *
   * @param space the space when the caller knows it; the text may then leave {@code space:} out
   * @throws InvalidQueryException naming the clause that is wrong ({@code text} for what is no clause)
   */
  static LiveQuery read(String text, Optional<SpaceId> space) {
    byte[] bytes;
    try {
      bytes = JsonReader.utf8(text);
    } catch (MalformedJsonException e) {
      throw new InvalidQueryException("text", "holds a lone surrogate at character " + e.offset());
    }
    return new QueryTextReader(bytes, space).query();
  }

  private final byte[] in;
  private final Optional<SpaceId> givenSpace;
  private final Set<String> seen = new HashSet<>();
  private int at;
  private SpaceId space;
  private LiveQuery.Builder builder;
  private final List<Runnable> clauses = new ArrayList<>();

  private QueryTextReader(byte[] in, Optional<SpaceId> givenSpace) {
    this.in = in;
    this.givenSpace = givenSpace;
  }

  LiveQuery query() {
    while (true) {
      skipWhitespace();
      if (at >= in.length) {
        break;
      }
      clause();
    }
    SpaceId chosen = space != null ? space
        : givenSpace.orElseThrow(() -> new InvalidQueryException("space", "is required (space:NAME)"));
    builder = LiveQuery.builder(chosen);
    clauses.forEach(Runnable::run);
    return builder.build();
  }

  private void clause() {
    int start = at;
    String word = letters().toLowerCase(Locale.ROOT);
    if (peek() == ':') {
      at++;
      switch (word) {
        case "space" -> space(start);
        case "feed" -> {
          String id = run(start);
          FeedId feed = valid("scope", () -> FeedId.of(id));
          clauses.add(() -> builder.feed(feed));
        }
        case "namespace" -> {
          String name = run(start);
          Namespace namespace = valid("scope", () -> Namespace.of(name));
          clauses.add(() -> builder.namespace(namespace));
        }
        case "key" -> {
          once("key", start);
          skipWhitespace();
          String field = field("key");
          clauses.add(() -> builder.key(field));
        }
        default -> throw unexpected(start);
      }
      return;
    }
    switch (word) {
      case "where" -> {
        once("where", start);
        condition("filter", true);
      }
      case "tombstone" -> {
        once("tombstone", start);
        condition("tombstone", false);
      }
      case "select" -> {
        once("select", start);
        do {
          skipWhitespace();
          String pointer = field("projection");
          clauses.add(() -> builder.select(pointer));
          skipWhitespace();
        } while (consume(','));
      }
      case "order" -> {
        once("order", start);
        skipWhitespace();
        String field = field("order");
        skipWhitespace();
        int before = at;
        String direction = letters().toLowerCase(Locale.ROOT);
        if (!direction.equals("asc") && !direction.equals("desc")) {
          at = before;
        }
        Order.Direction chosen = direction.equals("desc") ? Order.Direction.DESC : Order.Direction.ASC;
        clauses.add(() -> builder.orderBy(field, chosen));
      }
      case "limit" -> {
        once("limit", start);
        skipWhitespace();
        int limit = limit();
        clauses.add(() -> builder.limit(limit));
      }
      default -> throw unexpected(start);
    }
  }

  private void space(int start) {
    once("space", start);
    String id = run(start);
    SpaceId named = valid("space", () -> SpaceId.of(id));
    if (givenSpace.isPresent() && !givenSpace.get().equals(named)) {
      throw new InvalidQueryException("space", "names " + named + ", but the query is for space " + givenSpace.get());
    }
    space = named;
  }

  private void condition(String clause, boolean filter) {
    int index = 0;
    do {
      skipWhitespace();
      String name = clause + "[" + index++ + "]";
      String field = field(name);
      skipWhitespace();
      int operatorAt = at;
      Operator operator = operator(name);
      Object literal;
      if (operator == Operator.EXISTS) {
        literal = JsonBoolean.of(!text(operatorAt, at).toLowerCase(Locale.ROOT).startsWith("not"));
      } else {
        literal = json(name);
      }
      if (filter) {
        clauses.add(() -> builder.where(field, operator, literal));
      } else {
        clauses.add(() -> builder.tombstone(field, operator, literal));
      }
    } while (and());
  }

  private Operator operator(String clause) {
    int start = at;
    int c = peek();
    if (c == '=' || c == '!' || c == '<' || c == '>') {
      at++;
      if (peek() == '=') {
        at++;
      }
      String symbol = text(start, at);
      for (Operator operator : Operator.values()) {
        if (operator.symbol().equals(symbol)) {
          return operator;
        }
      }
      throw new InvalidQueryException(clause, symbol, "unknown operator (the operators are = != < <= > >= in contains"
          + " exists, not exists)");
    }
    String word = letters().toLowerCase(Locale.ROOT);
    switch (word) {
      case "in" -> {
        return Operator.IN;
      }
      case "contains" -> {
        return Operator.CONTAINS;
      }
      case "exists" -> {
        return Operator.EXISTS;
      }
      case "not" -> {
        skipWhitespace();
        if (letters().toLowerCase(Locale.ROOT).equals("exists")) {
          return Operator.EXISTS;
        }
      }
      default -> {
        // reported below
      }
    }
    throw new InvalidQueryException(clause, shownFrom(start), "an operator expected (= != < <= > >= in contains"
        + " exists, not exists)");
  }

  private Object json(String clause) {
    try {
      JsonReader.ValueAt value = JsonReader.readValue(in, at);
      at = value.end();
      return value.value();
    } catch (MalformedJsonException e) {
      throw new InvalidQueryException(clause, shownFrom(at), "a JSON value expected: " + e.getMessage());
    }
  }

  /** Consumes {@code and} before another predicate; false at the end of the condition. */
  private boolean and() {
    skipWhitespace();
    int before = at;
    if (letters().toLowerCase(Locale.ROOT).equals("and")) {
      return true;
    }
    at = before;
    return false;
  }

  /** A field: a metadata name, a bare pointer, or a pointer as a JSON string. */
  private String field(String clause) {
    int c = peek();
    if (c == '/') {
      int start = at;
      while (at < in.length && !isWhitespace(in[at]) && QueryText.POINTER_ENDS.indexOf(in[at]) < 0) {
        at++;
      }
      return text(start, at);
    }
    if (c == '"') {
      int start = at;
      Object value = json(clause);
      String pointer = ((JsonString) value).value();
      if (!pointer.isEmpty() && pointer.charAt(0) != '/') {
        throw new InvalidQueryException(clause, shownFrom(start), "a quoted field is a JSON pointer: '' or starting"
            + " with '/'");
      }
      return pointer;
    }
    int start = at;
    String name = letters();
    if (name.isEmpty()) {
      throw new InvalidQueryException(clause, shownFrom(start), "a field expected: a JSON pointer or one of "
          + MetadataField.names());
    }
    return name;
  }

  private int limit() {
    int start = at;
    while (at < in.length && in[at] >= '0' && in[at] <= '9') {
      at++;
    }
    String digits = text(start, at);
    if (digits.isEmpty() || digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE
        || Long.parseLong(digits) < 1) {
      throw new InvalidQueryException("limit", shownFrom(start), "must be an integer from 1 to " + Integer.MAX_VALUE);
    }
    return Integer.parseInt(digits);
  }

  private <T> T valid(String clause, Supplier<T> make) {
    try {
      return make.get();
    } catch (InvalidValueException e) {
      throw new InvalidQueryException(clause, e.getMessage());
    }
  }

  private void once(String clause, int start) {
    if (!seen.add(clause)) {
      throw new InvalidQueryException("text", shownFrom(start), clause + " is given twice");
    }
  }

  /** The word after a {@code name:} prefix, up to whitespace. */
  private String run(int start) {
    int from = at;
    while (at < in.length && !isWhitespace(in[at])) {
      at++;
    }
    if (from == at) {
      throw new InvalidQueryException("text", shownFrom(start), "a value expected right after the colon");
    }
    return text(from, at);
  }

  private String letters() {
    int start = at;
    while (at < in.length && ((in[at] >= 'a' && in[at] <= 'z') || (in[at] >= 'A' && in[at] <= 'Z'))) {
      at++;
    }
    return text(start, at);
  }

  private boolean consume(char c) {
    if (peek() == c) {
      at++;
      return true;
    }
    return false;
  }

  private InvalidQueryException unexpected(int start) {
    return new InvalidQueryException("text", shownFrom(start), "a clause expected (space:, feed:, namespace:, key:,"
        + " where, tombstone, select, order, limit) at character " + characterAt(start));
  }

  /** What the text holds from byte {@code start} to the next whitespace, to show in an error. */
  private String shownFrom(int start) {
    int end = start;
    while (end < in.length && !isWhitespace(in[end])) {
      end++;
    }
    return end == start ? "the end" : text(start, end);
  }

  private int characterAt(int offset) {
    return text(0, offset).length();
  }

  private String text(int from, int to) {
    return new String(in, from, to - from, StandardCharsets.UTF_8);
  }

  private void skipWhitespace() {
    while (at < in.length && isWhitespace(in[at])) {
      at++;
    }
  }

  private static boolean isWhitespace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private int peek() {
    return at < in.length ? in[at] & 0xff : -1;
  }
}
