package dev.feedstore.core.query;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonPointer;
import dev.feedstore.core.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A live query: which documents of a space an application follows, and what it sees of them.
 *
 * <ul>
 *   <li>{@link #space()} and {@link #scope()}: the feeds whose blocks are versions; the scope
 *       applies first, so a document's current version is its last block inside the scope;
 *   <li>{@link #key()}: which document each version belongs to (the feed, or a pointer's value);
 *   <li>{@link #filter()}: what the current version must match for its document to be in the result;
 *   <li>{@link #tombstone()}: a current version that matches it takes its document out (it does not
 *       count toward the limit; a later version that does not match brings the document back);
 *   <li>{@link #projection()}: what of the content each row carries (the whole content without one);
 *   <li>{@link #order()} and {@link #limit()}: the first {@code limit} documents in that order (by
 *       document key without an order); the rest are not in the result until one of them moves in.
 * </ul>
 *
 * <p>Checked when made: a query that cannot be evaluated is refused with an {@link
 * InvalidQueryException} naming the clause. Equal queries are equal records and have one canonical
 * JSON form ({@link #toJson()}); {@link #toText()} writes the text form. {@link #parse} reads
 * either. Thread-safe (immutable).
 */
public record LiveQuery(SpaceId space, Scope scope, DocumentKey key, Filter filter, Optional<Filter> tombstone,
    Optional<Projection> projection, Optional<Order> order, OptionalInt limit) {

  /**
   * @throws InvalidQueryException if the scope selects nothing, the tombstone has no predicate, or
   *     the limit is below 1
   */
  public LiveQuery {
    Objects.requireNonNull(space, "space");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(tombstone, "tombstone");
    Objects.requireNonNull(projection, "projection");
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(limit, "limit");
    if (scope.isEmpty()) {
      throw new InvalidQueryException("scope",
          "must name at least one feed or namespace (leave it out for the whole space)");
    }
    if (tombstone.isPresent() && tombstone.get().isEmpty()) {
      throw new InvalidQueryException("tombstone",
          "must hold at least one predicate (an empty one would match every version)");
    }
    if (limit.isPresent() && limit.getAsInt() < 1) {
      throw new InvalidQueryException("limit", "must be at least 1, was " + limit.getAsInt());
    }
  }

  /** A builder of a query over {@code space}: the whole space, documents by feed, every one of them. */
  public static Builder builder(SpaceId space) {
    return new Builder(space);
  }

  /**
   * The query in either form: JSON when the text starts with <code>{</code> or <code>[</code> (after
   * whitespace; a text form never does), otherwise the text form. The space must be in it.
   *
   * @throws InvalidQueryException naming the clause that is wrong
   */
  public static LiveQuery parse(String form) {
    return parse(form, Optional.empty());
  }

  /**
   * The query in either form, over {@code space} unless it names one (which must then be the same):
   * for callers that know the space from elsewhere, such as a URL.
   *
   * @throws InvalidQueryException naming the clause that is wrong
   */
  public static LiveQuery parse(String form, SpaceId space) {
    return parse(form, Optional.of(space));
  }

  private static LiveQuery parse(String form, Optional<SpaceId> space) {
    Objects.requireNonNull(form, "form");
    String start = form.stripLeading();
    return start.startsWith("{") || start.startsWith("[") ? QueryJson.read(form, space) : QueryTextReader.read(form, space);
  }

  /** The canonical JSON form: members sorted, literals normalised, defaults left out. */
  public String toJson() {
    return QueryJson.write(this).toJson();
  }

  /** The text form, which {@link #parse} reads back to an equal query. */
  public String toText() {
    return QueryText.write(this);
  }

  /**
   * A name of this query that equal queries share: the SHA-256 of its canonical JSON, in lower-case
   * hex.
   */
  public String fingerprint() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(toJson().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** The comparator of this query's rows ({@link RowOrder}). */
  public RowOrder rowOrder() {
    return RowOrder.of(order);
  }

  /** The document {@code version} is a version of: empty when it is outside the scope or has no key. */
  public Optional<DocumentId> documentOf(ParsedBlock version) {
    if (!scope.covers(version.block().feedId(), version.namespace())) {
      return Optional.empty();
    }
    return key.idOf(version);
  }

  /**
   * The row of document {@code id} when {@code version} is its current version: empty when the
   * version does not match the filter, or matches the tombstone. The caller has found the document
   * with {@link #documentOf}.
   */
  public Optional<Row> rowOf(DocumentId id, ParsedBlock version) {
    if (!filter.matches(version) || (tombstone.isPresent() && tombstone.get().matches(version))) {
      return Optional.empty();
    }
    Optional<JsonValue> orderValue = order.map(o -> o.field().valueIn(version));
    Optional<JsonValue> content = projection.isEmpty() ? version.json()
        : version.json().<JsonValue>map(json -> projection.get().project(json));
    return Optional.of(new Row(id, version.version(), orderValue, content));
  }

  /**
   * The result evaluated from scratch: the rows of the documents whose current versions are given,
   * in this query's order, the first {@code limit} of them. This is the reference every incremental
   * evaluation must agree with.
   *
   * @param currentVersions the current version of each document in scope, at most one per document
   * @throws IllegalArgumentException if a version is outside the scope or has no document, or two
   *     are versions of one document
   */
  public List<Row> evaluate(Collection<ParsedBlock> currentVersions) {
    Set<DocumentId> seen = new HashSet<>();
    List<Row> rows = new ArrayList<>();
    for (ParsedBlock version : currentVersions) {
      DocumentId id = requireDocument(version);
      if (!seen.add(id)) {
        throw new IllegalArgumentException("two current versions of document " + id + ", the second " + version);
      }
      rowOf(id, version).ifPresent(rows::add);
    }
    rows.sort(rowOrder());
    return limit.isPresent() && rows.size() > limit.getAsInt() ? List.copyOf(rows.subList(0, limit.getAsInt()))
        : List.copyOf(rows);
  }

  /**
   * The document of a version given as a current version.
   *
   * @throws IllegalArgumentException if it is outside the scope or has no document
   */
  public DocumentId requireDocument(ParsedBlock version) {
    return documentOf(version).orElseThrow(() -> new IllegalArgumentException(
        (scope.covers(version.block().feedId(), version.namespace()) ? "no document key at " + key : "outside the scope")
            + ", so not a current version: " + version));
  }

  @Override
  public String toString() {
    return toText();
  }

  /**
   * Builds a {@link LiveQuery}. Fields, operators, literals and the limit are checked by {@link
   * #build()}, which names the clause that is wrong; ids and namespaces are values checked when
   * made. Not thread-safe.
   */
  public static final class Builder {
    private final SpaceId space;
    private Scope scope = Scope.WHOLE_SPACE;
    private final Set<FeedId> feeds = new HashSet<>();
    private final Set<Namespace> namespaces = new HashSet<>();
    private String key = MetadataField.FEED.fieldName();
    private final List<Clause> where = new ArrayList<>();
    private final List<Clause> tombstone = new ArrayList<>();
    private final List<String> select = new ArrayList<>();
    private boolean selected;
    private String orderField;
    private Order.Direction direction = Order.Direction.ASC;
    private Integer limit;

    private record Clause(String field, Operator operator, Object literal) {}

    private Builder(SpaceId space) {
      this.space = Objects.requireNonNull(space, "space");
    }

    /** The scope as a whole (replacing feeds and namespaces added so far; later ones add to it). */
    public Builder scope(Scope value) {
      scope = Objects.requireNonNull(value, "scope");
      feeds.clear();
      namespaces.clear();
      return this;
    }

    /** Adds a feed to the scope (which is then a selection, no longer the whole space). */
    public Builder feed(FeedId feed) {
      feeds.add(Objects.requireNonNull(feed, "feed"));
      return this;
    }

    /** Adds a namespace to the scope (which is then a selection, no longer the whole space). */
    public Builder namespace(Namespace namespace) {
      namespaces.add(Objects.requireNonNull(namespace, "namespace"));
      return this;
    }

    /**
     * Adds the namespace named {@code namespace} to the scope.
     *
     * @throws dev.feedstore.core.InvalidValueException if {@code namespace} is not a namespace
     */
    public Builder namespace(String namespace) {
      return namespace(Namespace.of(namespace));
    }

    /** The document key: {@code feed} (the default) or a JSON pointer such as {@code /id}. */
    public Builder key(String field) {
      key = Objects.requireNonNull(field, "key");
      return this;
    }

    /**
     * Adds a predicate to the filter.
     *
     * @param field a JSON pointer ({@code /assignee}) or a metadata field's name ({@code receivedAt})
     * @param literal a JSON value, or a Java value {@link JsonValue#of} turns into one
     */
    public Builder where(String field, Operator operator, Object literal) {
      where.add(new Clause(field, operator, literal));
      return this;
    }

    /** Adds a predicate to the tombstone (a version matching all of them takes its document out). */
    public Builder tombstone(String field, Operator operator, Object literal) {
      tombstone.add(new Clause(field, operator, literal));
      return this;
    }

    /** Adds pointers to the projection. */
    public Builder select(String... pointers) {
      select.addAll(List.of(pointers));
      selected = true;
      return this;
    }

    /** Orders the result by a field (a pointer or a metadata field's name). */
    public Builder orderBy(String field, Order.Direction value) {
      orderField = Objects.requireNonNull(field, "field");
      direction = Objects.requireNonNull(value, "direction");
      return this;
    }

    /** Keeps the first {@code value} documents in the order. */
    public Builder limit(int value) {
      limit = value;
      return this;
    }

    /**
     * The query.
     *
     * @throws InvalidQueryException naming the first clause that cannot be evaluated
     */
    public LiveQuery build() {
      Scope builtScope = scope();
      DocumentKey builtKey = documentKey(key);
      Filter filter = new Filter(predicates("filter", where));
      Optional<Filter> builtTombstone = tombstone.isEmpty() ? Optional.empty()
          : Optional.of(new Filter(predicates("tombstone", tombstone)));
      Optional<Projection> projection = selected ? Optional.of(projection()) : Optional.empty();
      Optional<Order> order = Optional.ofNullable(orderField).map(f -> new Order(field("order", f), direction));
      return new LiveQuery(space, builtScope, builtKey, filter, builtTombstone, projection, order,
          limit == null ? OptionalInt.empty() : OptionalInt.of(limit));
    }

    /** The scope given, with the feeds and namespaces added to it (the whole space when none were). */
    private Scope scope() {
      if (feeds.isEmpty() && namespaces.isEmpty()) {
        return scope;
      }
      Set<FeedId> allFeeds = new HashSet<>(feeds);
      Set<Namespace> allNamespaces = new HashSet<>(namespaces);
      if (scope instanceof Scope.Selection selection) {
        allFeeds.addAll(selection.feeds());
        allNamespaces.addAll(selection.namespaces());
      }
      return Scope.of(allFeeds, allNamespaces);
    }

    private static DocumentKey documentKey(String key) {
      Field field = field("key", key);
      if (field instanceof PointerField pointer) {
        return DocumentKey.pointer(pointer.pointer());
      }
      if (field != MetadataField.FEED) {
        throw new InvalidQueryException("key", key, "the key must be feed or a JSON pointer");
      }
      return DocumentKey.FEED;
    }

    private static List<Predicate> predicates(String clause, List<Clause> clauses) {
      List<Predicate> predicates = new ArrayList<>();
      for (int i = 0; i < clauses.size(); i++) {
        Clause c = clauses.get(i);
        String name = clause + "[" + i + "]";
        if (c.operator() == null) {
          throw new InvalidQueryException(name, "an operator is required");
        }
        JsonValue literal;
        try {
          literal = JsonValue.of(c.literal());
        } catch (IllegalArgumentException e) {
          throw new InvalidQueryException(name, e.getMessage());
        }
        try {
          predicates.add(new Predicate(field(name, c.field()), c.operator(), literal));
        } catch (InvalidQueryException e) {
          throw e.in(name);
        }
      }
      return predicates;
    }

    private Projection projection() {
      List<JsonPointer> pointers = new ArrayList<>();
      for (int i = 0; i < select.size(); i++) {
        Field field = field("projection[" + i + "]", select.get(i));
        if (!(field instanceof PointerField pointer)) {
          throw new InvalidQueryException("projection[" + i + "]", select.get(i),
              "a projection keeps content: it takes JSON pointers, not metadata fields");
        }
        pointers.add(pointer.pointer());
      }
      return new Projection(pointers);
    }

    /** The field named {@code name}, or a refusal naming the clause. */
    static Field field(String clause, String name) {
      try {
        return Field.named(name);
      } catch (InvalidValueException e) {
        throw new InvalidQueryException(clause, e.getMessage());
      }
    }
  }
}
