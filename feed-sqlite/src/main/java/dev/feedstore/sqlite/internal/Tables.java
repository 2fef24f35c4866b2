package dev.feedstore.sqlite.internal;

import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.table;

import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.SQLDataType;

/** The tables and columns of the schema (see {@code migrations/V1__feed_store.sql}), for jOOQ. */
final class Tables {
  private Tables() {}

  static final Table<Record> SPACES = table(name("spaces"));
  static final Field<Long> SPACES_PRIVATE_ID = field(name("spaces", "space_private_id"), SQLDataType.BIGINT);
  static final Field<String> SPACES_SPACE_ID = field(name("spaces", "space_id"), SQLDataType.VARCHAR);
  static final Field<String> SPACES_SERVER_TOKEN = field(name("spaces", "server_token"), SQLDataType.VARCHAR);

  static final Table<Record> FEEDS = table(name("feeds"));
  static final Field<Long> FEEDS_PRIVATE_ID = field(name("feeds", "feed_private_id"), SQLDataType.BIGINT);
  static final Field<Long> FEEDS_SPACE = field(name("feeds", "space_private_id"), SQLDataType.BIGINT);
  static final Field<String> FEEDS_FEED_ID = field(name("feeds", "feed_id"), SQLDataType.VARCHAR);
  static final Field<String> FEEDS_NAMESPACE = field(name("feeds", "feed_namespace"), SQLDataType.VARCHAR);
  static final Field<Long> FEEDS_BLOCK_COUNT = field(name("feeds", "block_count"), SQLDataType.BIGINT);

  static final Table<Record> BLOCKS = table(name("blocks"));
  static final Field<Long> BLOCKS_FEED = field(name("blocks", "feed_private_id"), SQLDataType.BIGINT);
  static final Field<Long> BLOCKS_POSITION = field(name("blocks", "position"), SQLDataType.BIGINT);
  static final Field<byte[]> BLOCKS_DATA = field(name("blocks", "data"), SQLDataType.BLOB);
  static final Field<Integer> BLOCKS_PUBLISHED = field(name("blocks", "published"), SQLDataType.INTEGER);

  static final Table<Record> SUBSCRIPTIONS = table(name("subscriptions"));
  static final Field<String> SUBSCRIPTIONS_ID = field(name("subscriptions", "subscription_id"), SQLDataType.VARCHAR);
  static final Field<String> SUBSCRIPTIONS_SPACE = field(name("subscriptions", "space_id"), SQLDataType.VARCHAR);
  static final Field<Long> SUBSCRIPTIONS_TTL = field(name("subscriptions", "ttl_ms"), SQLDataType.BIGINT);
  static final Field<Long> SUBSCRIPTIONS_EXPIRES_AT = field(name("subscriptions", "expires_at"), SQLDataType.BIGINT);
  static final Field<String> SUBSCRIPTIONS_FEED_IDS = field(name("subscriptions", "feed_ids"), SQLDataType.VARCHAR);
  static final Field<String> SUBSCRIPTIONS_NAMESPACES = field(name("subscriptions", "namespaces"), SQLDataType.VARCHAR);

  static final Table<Record> FEED_REPLICATION = table(name("feed_replication"));
  static final Field<Long> FEED_REPLICATION_FEED = field(name("feed_replication", "feed_private_id"), SQLDataType.BIGINT);
  static final Field<String> FEED_REPLICATION_MODE = field(name("feed_replication", "mode"), SQLDataType.VARCHAR);
  static final Field<Long> FEED_REPLICATION_FROM = field(name("feed_replication", "from_position"), SQLDataType.BIGINT);

  static final Table<Record> NAMESPACE_REPLICATION = table(name("namespace_replication"));
  static final Field<Long> NAMESPACE_REPLICATION_SPACE =
      field(name("namespace_replication", "space_private_id"), SQLDataType.BIGINT);
  static final Field<String> NAMESPACE_REPLICATION_NAMESPACE =
      field(name("namespace_replication", "namespace"), SQLDataType.VARCHAR);
}
