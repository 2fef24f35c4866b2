package dev.feedstore.store;

import static dev.feedstore.store.schema.Tables.SUBSCRIPTIONS;
import static org.jooq.impl.DSL.greatest;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.min;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Subscription;
import dev.feedstore.core.store.Subscriptions;
import dev.feedstore.store.StoreDialect.LockKind;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Param;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * {@link Subscriptions} in the {@code subscriptions} table, read on every use (a subscription made
 * through one process may be used through another). A subscription names its space by id, so
 * storing one stores no space (subscribing is a read: it does not create the space). Its feeds and
 * namespaces are lists of ids, which each dialect keeps its own way ({@link StoreDialect#idList}).
 */
final class SqlSubscriptions implements Subscriptions {
  /** The columns a subscription is read from, in their order. */
  private static final List<Field<?>> COLUMNS = List.of(SUBSCRIPTIONS.SUBSCRIPTION_ID, SUBSCRIPTIONS.SPACE_ID,
      SUBSCRIPTIONS.FEED_IDS, SUBSCRIPTIONS.NAMESPACES, SUBSCRIPTIONS.TTL_MS, SUBSCRIPTIONS.EXPIRES_AT,
      SUBSCRIPTIONS.DURABLE, SUBSCRIPTIONS.ACKED, SUBSCRIPTIONS.NAME);
  private static final Condition DURABLE = SUBSCRIPTIONS.DURABLE.eq(inline(true));

  /** The statements of the subscriptions, rendered once per dialect. */
  static final class Queries {
    /** Lists of ids, bound as the dialect keeps them ({@link StoreDialect#idList}). */
    private static final Param<String> FEED_IDS = Params.text("feed_ids");
    private static final Param<String> NAMESPACES = Params.text("namespaces");
    private static final Param<Long> TTL = Params.number("ttl_ms");
    private static final Param<Long> EXPIRES = Params.number("expires_at");
    private static final Param<Boolean> IS_DURABLE = DSL.param("durable", SQLDataType.BOOLEAN);
    private static final Param<Long> ACKED = Params.number("acked");
    private static final Param<Long> DURABLE_BEFORE = Params.number("durable_before");

    final Rendered create;
    final Rendered find;
    final Rendered findDurable;
    final Rendered durables;
    final Rendered delete;
    final Rendered setExpiry;
    final Rendered ack;
    final Rendered lowestAck;
    final Rendered countUnexpired;
    final Rendered purge;

    Queries(DSLContext sql) {
      create = Rendered.of(sql.insertInto(SUBSCRIPTIONS).columns(COLUMNS).values(Params.TEXT_ID, Params.SPACE_ID,
          FEED_IDS, NAMESPACES, TTL, EXPIRES, IS_DURABLE, ACKED, Params.NAME),
          Params.TEXT_ID, Params.SPACE_ID, FEED_IDS, NAMESPACES, TTL, EXPIRES, IS_DURABLE, ACKED, Params.NAME);
      find = Rendered.of(sql.select(COLUMNS).from(SUBSCRIPTIONS).where(SUBSCRIPTIONS.SUBSCRIPTION_ID.eq(Params.TEXT_ID)),
          Params.TEXT_ID);
      findDurable = Rendered.of(sql.select(COLUMNS).from(SUBSCRIPTIONS).where(SUBSCRIPTIONS.SPACE_ID.eq(Params.SPACE_ID))
          .and(SUBSCRIPTIONS.NAME.eq(Params.NAME)), Params.SPACE_ID, Params.NAME);
      durables = Rendered.of(sql.select(COLUMNS).from(SUBSCRIPTIONS).where(SUBSCRIPTIONS.SPACE_ID.eq(Params.SPACE_ID))
          .and(DURABLE).orderBy(SUBSCRIPTIONS.SUBSCRIPTION_ID), Params.SPACE_ID);
      delete = Rendered.of(sql.deleteFrom(SUBSCRIPTIONS).where(SUBSCRIPTIONS.SUBSCRIPTION_ID.eq(Params.TEXT_ID)),
          Params.TEXT_ID);
      setExpiry = Rendered.of(sql.update(SUBSCRIPTIONS).set(SUBSCRIPTIONS.EXPIRES_AT, EXPIRES)
          .where(SUBSCRIPTIONS.SUBSCRIPTION_ID.eq(Params.TEXT_ID)), EXPIRES, Params.TEXT_ID);
      ack = Rendered.of(sql.update(SUBSCRIPTIONS).set(SUBSCRIPTIONS.ACKED, greatest(SUBSCRIPTIONS.ACKED, ACKED))
          .set(SUBSCRIPTIONS.EXPIRES_AT, EXPIRES).where(SUBSCRIPTIONS.SUBSCRIPTION_ID.eq(Params.TEXT_ID)).and(DURABLE),
          ACKED, EXPIRES, Params.TEXT_ID);
      lowestAck = Rendered.of(sql.select(min(SUBSCRIPTIONS.ACKED)).from(SUBSCRIPTIONS)
          .where(SUBSCRIPTIONS.SPACE_ID.eq(Params.SPACE_ID)).and(DURABLE).and(SUBSCRIPTIONS.EXPIRES_AT.gt(Params.NOW)),
          Params.SPACE_ID, Params.NOW);
      countUnexpired = Rendered.of(sql.select(DSL.count()).from(SUBSCRIPTIONS)
          .where(SUBSCRIPTIONS.SPACE_ID.eq(Params.SPACE_ID)).and(SUBSCRIPTIONS.EXPIRES_AT.gt(Params.NOW)),
          Params.SPACE_ID, Params.NOW);
      purge = Rendered.of(sql.deleteFrom(SUBSCRIPTIONS).where(SUBSCRIPTIONS.EXPIRES_AT.le(Params.NOW))
          .and(SUBSCRIPTIONS.DURABLE.eq(inline(false)).or(SUBSCRIPTIONS.EXPIRES_AT.le(DURABLE_BEFORE))),
          Params.NOW, DURABLE_BEFORE);
    }
  }

  private final SqlTransaction tx;
  private final Queries queries;

  SqlSubscriptions(SqlTransaction tx) {
    this.tx = tx;
    this.queries = tx.queries().subscriptions;
  }

  @Override
  public void create(Subscription subscription) {
    StoreDialect dialect = tx.dialect();
    tx.sql().update(queries.create, subscription.id(), subscription.spaceId().value(),
        dialect.idList(subscription.scope().feeds().stream().map(FeedId::value).toList()),
        dialect.idList(subscription.scope().namespaces().stream().map(Namespace::value).toList()),
        subscription.ttlMillis(), subscription.expiresAtMillis(), subscription.isDurable(),
        subscription.durable().map(Subscription.Durable::acked).orElse(0L),
        subscription.durable().flatMap(Subscription.Durable::name).orElse(null));
  }

  @Override
  public Optional<Subscription> find(String id) {
    return storable(id) ? tx.sql().one(queries.find, this::subscription, id) : Optional.empty();
  }

  @Override
  public Optional<Subscription> findDurable(SpaceId spaceId, String name) {
    return storable(name) ? tx.sql().one(queries.findDurable, this::subscription, spaceId.value(), name)
        : Optional.empty();
  }

  @Override
  public List<Subscription> durables(SpaceId spaceId) {
    return tx.sql().list(queries.durables, this::subscription, spaceId.value());
  }

  @Override
  public boolean delete(String id) {
    return storable(id) && tx.sql().update(queries.delete, id) == 1;
  }

  @Override
  public boolean setExpiry(String id, long expiresAtMillis) {
    return storable(id) && tx.sql().update(queries.setExpiry, expiresAtMillis, id) == 1;
  }

  @Override
  public boolean ack(String id, long upTo, long expiresAtMillis) {
    return storable(id) && tx.sql().update(queries.ack, upTo, expiresAtMillis, id) == 1;
  }

  @Override
  public OptionalLong lowestAck(SpaceId spaceId, long nowMillis) {
    Long lowest = tx.sql().longValue(queries.lowestAck, spaceId.value(), nowMillis);
    return lowest == null ? OptionalLong.empty() : OptionalLong.of(lowest);
  }

  /**
   * Creations of subscriptions in one space wait for each other from here to their commit, where the
   * dialect needs a lock for that ({@link LockKind#SUBSCRIPTIONS_OF_SPACE}), so that a count the
   * limit is checked on holds until the new subscription is stored, whatever process stores another.
   */
  @Override
  public long countUnexpired(SpaceId spaceId, long nowMillis) {
    tx.dialect().lock(tx.sql(), LockKind.SUBSCRIPTIONS_OF_SPACE, spaceId.value());
    Long count = tx.sql().longValue(queries.countUnexpired, spaceId.value(), nowMillis);
    return count == null ? 0 : count;
  }

  @Override
  public int purgeExpired(long nowMillis, long durableBeforeMillis) {
    return tx.sql().update(queries.purge, nowMillis, durableBeforeMillis);
  }

  /** Whether the id can be stored at all: one that cannot was never handed out, so it is not looked up. */
  private boolean storable(String id) {
    return tx.dialect().canStore(id);
  }

  private Subscription subscription(ResultSet rs) throws SQLException {
    Optional<Subscription.Durable> durable = rs.getBoolean(column(SUBSCRIPTIONS.DURABLE))
        ? Optional.of(new Subscription.Durable(Optional.ofNullable(rs.getString(column(SUBSCRIPTIONS.NAME))),
            rs.getLong(column(SUBSCRIPTIONS.ACKED))))
        : Subscription.NOT_DURABLE;
    StoreDialect dialect = tx.dialect();
    return new Subscription(rs.getString(column(SUBSCRIPTIONS.SUBSCRIPTION_ID)),
        new SpaceId(rs.getString(column(SUBSCRIPTIONS.SPACE_ID))),
        new Scope.Selection(
            dialect.idList(rs, column(SUBSCRIPTIONS.FEED_IDS)).stream().map(FeedId::new).collect(Collectors.toSet()),
            dialect.idList(rs, column(SUBSCRIPTIONS.NAMESPACES)).stream().map(Namespace::new)
                .collect(Collectors.toSet())),
        rs.getLong(column(SUBSCRIPTIONS.TTL_MS)), rs.getLong(column(SUBSCRIPTIONS.EXPIRES_AT)), durable);
  }

  private static int column(Field<?> field) {
    return COLUMNS.indexOf(field) + 1;
  }
}
