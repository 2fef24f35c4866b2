package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.FEEDS;
import static org.jooq.impl.DSL.noCondition;
import static org.jooq.impl.DSL.or;
import static org.jooq.impl.DSL.select;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.Param;

/**
 * A statement over a space's blocks that reads only the feeds of a {@link Scope}: its feeds by id
 * or by namespace, as a condition on the block's feed, {@code feed_private_id IN (SELECT
 * feed_private_id FROM feeds WHERE space_private_id = ? AND (feed_id <any of> OR feed_namespace <any
 * of>))}. How a list of values is bound is the dialect's ({@link StoreDialect#anyOf}: one array, or a
 * parameter per value), so the statement is rendered once per shape of scope and kept. Thread-safe.
 */
public final class ScopedQuery {
  /** Renders the statement with the scope's condition (no condition for a whole space). */
  @FunctionalInterface
  public interface Shape {
    /**
     * @param scope the condition to add to the statement's conditions on the blocks
     * @return the statement, whose parameters are ordered with {@code scope} standing for the scope's
     */
    Rendered render(Condition scope);
  }

  private static final Param<Long> SCOPE_SPACE = Params.number("scope_space");

  private final StoreDialect dialect;
  private final Field<Long> feed;
  private final Shape shape;
  private final Map<List<Integer>, Rendered> rendered = new ConcurrentHashMap<>();

  /** @param feed the column of the blocks' feed private id that the scope's condition is on */
  public ScopedQuery(StoreDialect dialect, Field<Long> feed, Shape shape) {
    this.dialect = dialect;
    this.feed = feed;
    this.shape = shape;
  }

  /** The statement for {@code scope}, which must not be an empty selection. */
  public Rendered statement(Scope scope) {
    if (!(scope instanceof Scope.Selection selection)) {
      return rendered.computeIfAbsent(List.of(), key -> shape.render(noCondition()));
    }
    int feeds = selection.feeds().size();
    int namespaces = selection.namespaces().size();
    return rendered.computeIfAbsent(List.of(dialect.anyOfShape(feeds), dialect.anyOfShape(namespaces)),
        key -> shape.render(condition(feeds, namespaces)));
  }

  /** The values of the scope's parameters, in order: none for a whole space. */
  public List<Object> parameters(long space, Scope scope) {
    if (!(scope instanceof Scope.Selection selection)) {
      return List.of();
    }
    List<Object> parameters = new ArrayList<>();
    parameters.add(space);
    List<String> feeds = selection.feeds().stream().map(FeedId::value).sorted().toList();
    if (dialect.anyOfShape(feeds.size()) > 0) {
      parameters.addAll(dialect.anyOfValues(feeds));
    }
    List<String> namespaces = selection.namespaces().stream().map(Namespace::value).sorted().toList();
    if (dialect.anyOfShape(namespaces.size()) > 0) {
      parameters.addAll(dialect.anyOfValues(namespaces));
    }
    return parameters;
  }

  private Condition condition(int feeds, int namespaces) {
    List<Condition> members = new ArrayList<>(2);
    if (dialect.anyOfShape(feeds) > 0) {
      members.add(dialect.anyOf(FEEDS.FEED_ID, "scope_feeds", feeds));
    }
    if (dialect.anyOfShape(namespaces) > 0) {
      members.add(dialect.anyOf(FEEDS.FEED_NAMESPACE, "scope_namespaces", namespaces));
    }
    return feed.in(select(FEEDS.FEED_PRIVATE_ID).from(FEEDS)
        .where(FEEDS.SPACE_PRIVATE_ID.eq(SCOPE_SPACE)).and(or(members)));
  }
}
