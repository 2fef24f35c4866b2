package dev.feedstore.server.settings;

import static dev.feedstore.server.settings.Setting.Area.DURABLE_STREAMS;
import static dev.feedstore.server.settings.Setting.Area.GRPC;
import static dev.feedstore.server.settings.Setting.Area.HTTP;
import static dev.feedstore.server.settings.Setting.Area.LIVE;
import static dev.feedstore.server.settings.Setting.Area.PRINCIPALS;
import static dev.feedstore.server.settings.Setting.Area.PROCESS;
import static dev.feedstore.server.settings.Setting.Area.REQUESTS;
import static dev.feedstore.server.settings.Setting.Area.RETENTION;
import static dev.feedstore.server.settings.Setting.Area.SQLITE;
import static dev.feedstore.server.settings.Setting.Area.STORE;
import static dev.feedstore.server.settings.Setting.Area.SUBSCRIPTIONS;
import static dev.feedstore.server.settings.Setting.Unit.BYTES;
import static dev.feedstore.server.settings.Setting.Unit.COUNT;
import static dev.feedstore.server.settings.Setting.Unit.MILLISECONDS;
import static dev.feedstore.server.settings.Setting.Unit.SPACE;

import dev.feedstore.core.Limits;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.Retention;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

/**
 * Every limit and tunable of the position authority, each defined once in the table below: its
 * name, type, default, bounds, unit, where it applies and what it does ({@link Setting}). Each name
 * is a command-line flag of {@code Main} ({@code --block-bytes}) and the name an error gives when a
 * request goes over the limit; {@code --help} and the settings table of {@code docs/deployment.md}
 * are made from the same entries ({@code SettingsTableTest} rewrites the table). A new setting is
 * one more entry ({@code docs/settings.md}).
 *
 * <p>A value is read with {@link #get(Setting)}, e.g. {@code settings.get(ServerSettings.BLOCK_BYTES)}.
 * Immutable and thread-safe; {@link Builder#build()} rejects values that cannot work, naming the
 * setting and its rule.
 */
public final class ServerSettings {
  private static final List<Setting<?>> DEFINED = new ArrayList<>();

  /** Largest data of one block. {@code --block-bytes}, in bytes: default 1048576 (1 MiB), must be &gt; 0. */
  public static final Setting<Integer> BLOCK_BYTES = define(Setting.ofInt(Limits.Key.BLOCK_BYTES,
      Limits.DEFAULT_BLOCK_BYTES).unit(BYTES).in(REQUESTS).atLeast(1)
      .doc("Largest data of one block."));

  /** Most blocks in one Append. {@code --blocks-per-append}: default 1000, must be &gt; 0. */
  public static final Setting<Integer> BLOCKS_PER_APPEND = define(Setting.ofInt(Limits.Key.BLOCKS_PER_APPEND,
      Limits.DEFAULT_BLOCKS_PER_APPEND).unit(COUNT).in(REQUESTS).atLeast(1)
      .doc("Most blocks in one Append."));

  /**
   * Largest {@code limit} a Query may ask for (0 in a request means 100). {@code --query-limit}: default 1000, must be
   * &gt; 0.
   */
  public static final Setting<Integer> QUERY_LIMIT = define(Setting.ofInt(Limits.Key.QUERY_LIMIT,
      Limits.DEFAULT_QUERY_LIMIT).unit(COUNT).in(REQUESTS).atLeast(1)
      .doc("Largest `limit` a Query may ask for (0 in a request means 100).",
          "Also the page size of ListFeeds (its `limit`, at most this; 0 means this)."));

  /**
   * Most feed ids and namespaces one scope names: the feed ids of a Query or Watch, the feed ids and namespaces of a
   * Subscribe together. {@code --feeds-per-scope}: default 1000, must be 1 to 5000 (a larger scope does not fit in one
   * statement of the store).
   */
  public static final Setting<Integer> FEEDS_PER_SCOPE = define(Setting.ofInt("feeds-per-scope", 1_000)
      .unit(COUNT).in(REQUESTS).atLeast(1).atMost(5_000, "a larger scope does not fit in one statement of the store")
      .doc("Most feed ids and namespaces one scope names: the feed ids of a Query or Watch, the feed ids and"
          + " namespaces of a Subscribe together.",
          "Every Watch stream holds its scope in memory and the store reads it in one SQL statement, which names each"
          + " feed id (26 characters) or namespace (up to 128): 5,000 of the longest stay well under SQLite's default"
          + " statement length of 1,000,000 bytes. A replica lists at most 64 feeds in a read and subscribes for"
          + " more."));

  /**
   * Largest request message: a gRPC message, or an HTTP request's body. {@code --max-message-bytes}, in bytes: default
   * 16777216 (16 MiB), must be &gt; 0, above block-bytes.
   */
  public static final Setting<Integer> MAX_MESSAGE_BYTES = define(Setting.ofInt("max-message-bytes", 16 << 20)
      .unit(BYTES).in(REQUESTS).atLeast(1).above(BLOCK_BYTES, "so that a block of the largest size fits")
      .doc("Largest request message: a gRPC message, or an HTTP request's body.",
          "16 MiB: a block of the largest default size fits many times over, as does a batch of 1,000 blocks of up"
          + " to about 16 KiB, while a handful of concurrent oversized requests cannot exhaust a default heap; gRPC"
          + " itself would stop at 4 MiB, too little for batches of large blocks."));

  /**
   * Most block data in one Query response or HTTP page of blocks (one block always goes). {@code --response-bytes}, in
   * bytes: default 3145728 (3 MiB), must be &gt; 0.
   */
  public static final Setting<Integer> RESPONSE_BYTES = define(Setting.ofInt("response-bytes", 3 << 20)
      .unit(BYTES).in(REQUESTS).atLeast(1)
      .doc("Most block data in one Query response or HTTP page of blocks (one block always goes).",
          "A response holds the larger of this and one block, plus framing: the default keeps answers under the"
          + " 4 MiB that gRPC clients accept by default."));

  /**
   * Smallest answer sent gzipped to a client that accepts gzip: a gRPC response but Watch's, an HTTP answer but an
   * event stream (0 compresses nothing). {@code --compress-min-bytes}, in bytes: default 1024 (1 KiB), must be &gt;= 0
   * (0 compresses nothing).
   */
  public static final Setting<Integer> COMPRESS_MIN_BYTES = define(Setting.ofInt("compress-min-bytes", 1024)
      .unit(BYTES).in(REQUESTS).atLeast(0, "0 compresses nothing")
      .doc("Smallest answer sent gzipped to a client that accepts gzip: a gRPC response but Watch's, an HTTP answer"
          + " but an event stream (0 compresses nothing).",
          "Pages of blocks, feed lists and Durable Streams catch-up reads shrink several times over when their blocks"
          + " hold text, for CPU on both sides (feed-bench's `compression` rows measure both); smaller answers gain"
          + " too little to pay for it. Event streams (Watch, Server-Sent Events) go as they are: each live block is"
          + " encoded once for all their readers, and compressing it per reader would cost each reader's CPU"
          + " (`--sse-gzip-level` gzips Server-Sent Events)."));

  /**
   * Deflate level (1 fastest to 9 smallest) of Server-Sent Events sent gzipped to a client that accepts gzip, each
   * write of events flushed as it goes (0 sends them as they are). {@code --sse-gzip-level}: default 0, must be 0 to 9
   * (0 sends event streams as they are).
   */
  public static final Setting<Integer> SSE_GZIP_LEVEL = define(Setting.ofInt("sse-gzip-level", 0)
      .unit(COUNT).in(REQUESTS).atLeast(0, "0 sends event streams as they are").atMost(9)
      .doc("Deflate level (1 fastest to 9 smallest) of Server-Sent Events sent gzipped to a client that accepts gzip,"
          + " each write of events flushed as it goes (0 sends them as they are).",
          "Both event streams: the API's `GET /v1/spaces/{space}/events` and Durable Streams' `live=sse`. Off by"
          + " default: a live block's event is encoded once for all the streams of its space, but each gzipped stream"
          + " deflates it again for its own reader (server CPU per reader and block, feed-bench's `compression.sse`"
          + " rows), and holds a deflater of about 256 KiB of native memory while it is open. Worth it for few readers"
          + " on slow links whose blocks hold text; not for thousands of readers of one space."));

  /**
   * Most live streams open on the server (Watch and Server-Sent Events). {@code --watches-per-server}: default 10000,
   * must be &gt; 0.
   */
  public static final Setting<Integer> WATCHES_PER_SERVER = define(Setting.ofInt("watches-per-server", 10_000)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most live streams open on the server (Watch and Server-Sent Events).",
          "About 2 KiB of heap each; a stalled reader holds one batch more (`--watch-batch-bytes`)."));

  /**
   * Most Watch streams open on one client connection. {@code --watches-per-connection}: default 1000, must be &gt; 0.
   */
  public static final Setting<Integer> WATCHES_PER_CONNECTION = define(Setting.ofInt("watches-per-connection", 1_000)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most Watch streams open on one client connection."));

  /**
   * Most heap the scopes of all open live streams hold; a stream that would take more is refused. {@code
   * --watch-scope-bytes}, in bytes: default 67108864 (64 MiB), must be &gt; 0.
   */
  public static final Setting<Long> WATCH_SCOPE_BYTES = define(Setting.ofLong("watch-scope-bytes", 64L << 20)
      .unit(BYTES).in(LIVE).atLeast(1)
      .doc("Most heap the scopes of all open live streams hold; a stream that would take more is refused.",
          "A stream keeps the feed ids (16 bytes each) and namespaces (about 100 bytes each) it watches for its life"
          + " and is refused with `RESOURCE_EXHAUSTED` over this. 64 MiB is a quarter of a 256 MiB heap, the"
          + " smallest this guide plans for: 4,000 streams of 1,000 feed ids; streams of a namespace or a whole"
          + " space hold almost nothing."));

  /**
   * Most heap the scopes of the Watch streams of one client connection hold. {@code
   * --watch-scope-bytes-per-connection}, in bytes: default 16777216 (16 MiB), must be &gt; 0.
   */
  public static final Setting<Long> WATCH_SCOPE_BYTES_PER_CONNECTION = define(Setting.ofLong(
      "watch-scope-bytes-per-connection", 16L << 20).unit(BYTES).in(LIVE).atLeast(1)
      .doc("Most heap the scopes of the Watch streams of one client connection hold.",
          "A quarter of `--watch-scope-bytes`, so one client cannot take the whole server's share, and still enough"
          + " for its 1,000 streams (`--watches-per-connection`) to list 1,000 feed ids each."));

  /**
   * Most blocks in one batch of a live stream (a Watch batch). {@code --watch-batch-blocks}: default 100, must be &gt;
   * 0, &lt;= query-limit.
   */
  public static final Setting<Integer> WATCH_BATCH_BLOCKS = define(Setting.ofInt("watch-batch-blocks", 100)
      .unit(COUNT).in(LIVE).atLeast(1).atMost(QUERY_LIMIT)
      .doc("Most blocks in one batch of a live stream (a Watch batch)."));

  /**
   * Most block data in one Watch batch (one block always goes); bounds what a stalled stream holds off the heap. {@code
   * --watch-batch-bytes}, in bytes: default 262144 (256 KiB), must be &gt; 0.
   */
  public static final Setting<Integer> WATCH_BATCH_BYTES = define(Setting.ofInt("watch-batch-bytes", 256 << 10)
      .unit(BYTES).in(LIVE).atLeast(1)
      .doc("Most block data in one Watch batch (one block always goes); bounds what a stalled stream holds off the"
          + " heap.",
          "A stream whose reader stopped reading holds about one batch in the transport's buffers, off the heap: the"
          + " worst case is `--watches-per-server` x (this + one block) plus HTTP/2 windows, about 2.5 GiB at the"
          + " defaults with small blocks, so lower `--watches-per-server` on a small machine."));

  /**
   * Heartbeat interval of idle live streams; also how often open streams renew their subscriptions and expired
   * subscriptions are purged. {@code --heartbeat-ms}, in milliseconds: default 15000 (15 s), must be &gt; 0.
   */
  public static final Setting<Long> HEARTBEAT_MS = define(Setting.ofLong("heartbeat-ms", 15_000)
      .unit(MILLISECONDS).in(LIVE).atLeast(1)
      .doc("Heartbeat interval of idle live streams; also how often open streams renew their subscriptions and"
          + " expired subscriptions are purged."));

  /**
   * Recently committed blocks kept in memory per watched space, read once and shared by its watchers. {@code
   * --tail-blocks}: default 4096, must be &gt; 0.
   */
  public static final Setting<Integer> TAIL_BLOCKS = define(Setting.ofInt("tail-blocks", 4096)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Recently committed blocks kept in memory per watched space, read once and shared by its watchers."));

  /**
   * Most block data kept in memory per watched space. {@code --tail-bytes}, in bytes: default 16777216 (16 MiB), must
   * be &gt; 0.
   */
  public static final Setting<Long> TAIL_BYTES = define(Setting.ofLong("tail-bytes", 16L << 20)
      .unit(BYTES).in(LIVE).atLeast(1)
      .doc("Most block data kept in memory per watched space."));

  /**
   * Most live queries open on the server (gRPC LiveQuery and Server-Sent Events). {@code --live-queries-per-server}:
   * default 10000, must be &gt; 0.
   */
  public static final Setting<Integer> LIVE_QUERIES_PER_SERVER = define(Setting.ofInt("live-queries-per-server",
      10_000).unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most live queries open on the server (gRPC LiveQuery and Server-Sent Events).",
          "Subscribers of one query share its state: each costs about 1 KiB beside it."));

  /**
   * Most live queries one principal may hold open. {@code --live-queries-per-principal}: default 100, must be &gt; 0.
   */
  public static final Setting<Integer> LIVE_QUERIES_PER_PRINCIPAL = define(Setting.ofInt(
      "live-queries-per-principal", 100).unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most live queries one principal may hold open."));

  /**
   * Most live queries open on one client connection. {@code --live-queries-per-connection}: default 100, must be &gt;
   * 0.
   */
  public static final Setting<Integer> LIVE_QUERIES_PER_CONNECTION = define(Setting.ofInt(
      "live-queries-per-connection", 100).unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most live queries open on one client connection."));

  /**
   * Most rows in the snapshot of a live query; a larger one is refused (give the query a limit). {@code
   * --live-query-snapshot-rows}: default 10000, must be &gt; 0.
   */
  public static final Setting<Integer> LIVE_QUERY_SNAPSHOT_ROWS = define(Setting.ofInt("live-query-snapshot-rows",
      10_000).unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most rows in the snapshot of a live query; a larger one is refused (give the query a limit)."));

  /**
   * Most documents one live query may match, within its limit or not: the server holds a row for each. {@code
   * --live-query-matches}: default 100000, must be &gt; 0.
   */
  public static final Setting<Integer> LIVE_QUERY_MATCHES = define(Setting.ofInt("live-query-matches", 100_000)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Most documents one live query may match, within its limit or not: the server holds a row for each.",
          "A query that goes past it is refused, or ended if it grows past it while open."));

  /**
   * Rows of recent change batches kept per shared live query for its slower subscribers. {@code
   * --live-query-recent-rows}: default 10000, must be &gt; 0.
   */
  public static final Setting<Long> LIVE_QUERY_RECENT_ROWS = define(Setting.ofLong("live-query-recent-rows", 10_000)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Rows of recent change batches kept per shared live query for its slower subscribers.",
          "A subscriber whose next batch is no longer kept catches up from storage instead: no subscriber has a"
          + " queue of its own."));

  /**
   * Pages read from storage kept per watched space for the streams behind its recent blocks, each read once and shared.
   * {@code --shared-pages}: default 512, must be 1 to 65536.
   */
  public static final Setting<Integer> SHARED_PAGES = define(Setting.ofInt("shared-pages", 512)
      .unit(COUNT).in(LIVE).atLeast(1).atMost(65_536)
      .doc("Pages read from storage kept per watched space for the streams behind its recent blocks, each read once"
          + " and shared.",
          "A saturated server's streams fall behind `--tail-blocks` at hundreds of points a page apart; 512 is enough"
          + " for 1,000 of them on one core. Each page holds at most one batch (`--watch-batch-bytes`) and what the"
          + " transports encode from it, about 100 KiB for 100 blocks of 256 bytes (50 MiB when all 512 are in use);"
          + " a stream alone in its space keeps none; pages are"
          + " held only once streams fell behind, dropped with the space's last watcher, and bounded in all spaces"
          + " together by `--shared-pages-bytes`."));

  /**
   * Most memory the pages kept for streams behind may hold in all watched spaces together (a page counts two and a half
   * times its blocks' data); beyond it the oldest are dropped. 0 keeps none. {@code --shared-pages-bytes}, in bytes:
   * default 67108864 (64 MiB), must be &gt;= 0 (0 keeps no page: every stream behind reads its own).
   */
  public static final Setting<Long> SHARED_PAGES_BYTES = define(Setting.ofLong("shared-pages-bytes", 64L << 20)
      .unit(BYTES).in(LIVE).atLeast(0, "0 keeps no page: every stream behind reads its own")
      .doc("Most memory the pages kept for streams behind may hold in all watched spaces together (a page counts"
          + " two and a half times its blocks' data); beyond it the oldest are dropped. 0 keeps none.",
          "A page counts its blocks and what a transport encodes from them (a Watch frame about as large, Server-Sent"
          + " Events half as large again). When a page would pass it, the pages kept longest, of"
          + " whichever space, are dropped (streams behind them read storage again), and a page larger than the whole"
          + " budget is sent unshared. 64 MiB holds the 512 pages of one space whose streams all fell behind, with"
          + " room to spare, and is a quarter of a 256 MiB heap."));

  /**
   * Threads that feed live streams (Watch and Server-Sent Events). {@code --watch-threads}: default 4, must be &gt; 0.
   */
  public static final Setting<Integer> WATCH_THREADS = define(Setting.ofInt("watch-threads", 4)
      .unit(COUNT).in(LIVE).atLeast(1)
      .doc("Threads that feed live streams (Watch and Server-Sent Events)."));

  /**
   * Longest TTL (and {@code ack_within_ms}) a subscription may ask for. {@code --subscription-max-ttl-ms}, in
   * milliseconds: default 86400000 (24 h), must be &gt; 0.
   */
  public static final Setting<Long> SUBSCRIPTION_MAX_TTL_MS = define(Setting.ofLong("subscription-max-ttl-ms",
      24 * 60 * 60 * 1000L).unit(MILLISECONDS).in(SUBSCRIPTIONS).atLeast(1)
      .doc("Longest TTL (and `ack_within_ms`) a subscription may ask for.",
          "Also how long an expired durable subscription is remembered as expired (`SUBSCRIPTION_EXPIRED`) before it"
          + " is purged (then `SUBSCRIPTION_UNKNOWN`)."));

  /**
   * TTL of a subscription that asks for none; also a durable subscription's {@code ack_within_ms} when it asks for
   * none. {@code --subscription-ttl-ms}, in milliseconds: default 3600000 (1 h), must be &gt; 0, &lt;=
   * subscription-max-ttl-ms.
   */
  public static final Setting<Long> SUBSCRIPTION_TTL_MS = define(Setting.ofLong("subscription-ttl-ms",
      60 * 60 * 1000L).unit(MILLISECONDS).in(SUBSCRIPTIONS).atLeast(1).atMost(SUBSCRIPTION_MAX_TTL_MS)
      .doc("TTL of a subscription that asks for none; also a durable subscription's `ack_within_ms` when it asks for"
          + " none."));

  /**
   * Most unexpired stored subscriptions one space may have; a Subscribe that would make more is refused. {@code
   * --subscriptions-per-space}: default 10000, must be &gt; 0.
   */
  public static final Setting<Integer> SUBSCRIPTIONS_PER_SPACE = define(Setting.ofInt("subscriptions-per-space",
      10_000).unit(COUNT).in(SUBSCRIPTIONS).atLeast(1)
      .doc("Most unexpired stored subscriptions one space may have; a Subscribe that would make more is refused.",
          "Refused with `RESOURCE_EXHAUSTED`, storing nothing. Counted in the store in the Subscribe's transaction, so"
          + " every server sharing it counts the same; expired ones make room. With `--feeds-per-scope` ids each at"
          + " most, a space's subscriptions stay within a bounded size."));

  /**
   * Most spaces the server serves from its store; an Append creating one more is refused. {@code --spaces-per-server}:
   * default 100000, must be &gt; 0.
   */
  public static final Setting<Integer> SPACES_PER_SERVER = define(Setting.ofInt("spaces-per-server", 100_000)
      .unit(COUNT).in(STORE).atLeast(1)
      .doc("Most spaces the server serves from its store; an Append creating one more is refused.",
          "The first Append to a space creates it (a read of a space the store does not hold creates nothing and"
          + " takes no place), and every space stays in the store and, once touched, in memory: about 500 bytes,"
          + " 50 MiB at the default. Refused with `RESOURCE_EXHAUSTED`."));

  /**
   * Most feeds one space may have; an Append creating one more is refused. {@code --feeds-per-space}: default 1000000,
   * must be &gt; 0.
   */
  public static final Setting<Integer> FEEDS_PER_SPACE = define(Setting.ofInt("feeds-per-space", 1_000_000)
      .unit(COUNT).in(STORE).atLeast(1)
      .doc("Most feeds one space may have; an Append creating one more is refused.",
          "Refused with `RESOURCE_EXHAUSTED`, writing nothing. Counted in the store in the transaction that creates"
          + " feeds, so a restart keeps the bound. Far above what an application's space holds (a feed per user and"
          + " document), while one client cannot make a space grow without end; feeds take no memory."));

  /**
   * Most blocks of appends waiting for a commit that are committed together in one transaction; 1 commits every append
   * alone. {@code --append-group-blocks}: default 1000, must be &gt; 0.
   */
  public static final Setting<Integer> APPEND_GROUP_BLOCKS = define(Setting.ofInt("append-group-blocks", 1_000)
      .unit(COUNT).in(STORE).atLeast(1)
      .doc("Most blocks of appends waiting for a commit that are committed together in one transaction; 1 commits"
          + " every append alone.",
          "Group commit: appends that arrive while a commit is in flight are committed together as the next group,"
          + " one commit and one fsync for all, each still all or nothing with its own positions; an append that finds"
          + " no commit in flight is committed at once, and one larger than this is a group of its own. The default"
          + " is that of `--blocks-per-append`: a group's transaction is never larger than the largest single Append,"
          + " and 100 clients appending 10 blocks each fit in one. See \"Group commit\" below."));

  /**
   * How often a tiny write checks that the store takes writes; health is NOT_SERVING from a failed write until one
   * succeeds. {@code --write-probe-ms}, in milliseconds: default 5000 (5 s), must be &gt; 0.
   */
  public static final Setting<Long> WRITE_PROBE_MS = define(Setting.ofLong("write-probe-ms", 5_000)
      .unit(MILLISECONDS).in(STORE).atLeast(1)
      .doc("How often a tiny write checks that the store takes writes; health is NOT_SERVING from a failed write"
          + " until one succeeds.",
          "A load balancer that checks health every few seconds learns of a disk that stopped taking writes, or took"
          + " them again, within about that, for one small commit per interval (see Health checks and When the disk"
          + " fills up below)."));

  /**
   * How long SQLite's {@code quick_check} may read the database at start, table by table (a damaged file is refused;
   * one not checked whole in time starts with a warning naming the tables not checked whole); 0 skips it. {@code
   * --quick-check-ms}, in milliseconds: default 20000 (20 s), must be &gt;= 0 (0 skips the check).
   */
  public static final Setting<Long> QUICK_CHECK_MS = define(Setting.ofLong("quick-check-ms", 20_000)
      .unit(MILLISECONDS).in(SQLITE).atLeast(0, "0 skips the check")
      .doc("How long SQLite's `quick_check` may read the database at start, table by table (a damaged file is"
          + " refused; one not checked whole in time starts with a warning naming the tables not checked whole); 0"
          + " skips it.",
          "20 s keeps a start within the 30 s a Kubernetes liveness probe of this guide allows. Measured on a 1.1 GB"
          + " store: 4.2 s with the file in the page cache, 29 s read cold from a slow shared disk. See Checked at"
          + " start below."));

  /**
   * Most blocks a space keeps; older ones are compacted away. 0 keeps all. {@code --retain-blocks}: default 0, must be
   * &gt;= 0 (0 keeps everything).
   */
  public static final Setting<Long> RETAIN_BLOCKS = define(Setting.ofLong("retain-blocks", 0)
      .unit(COUNT).in(RETENTION).atLeast(0, "0 keeps everything")
      .doc("Most blocks a space keeps; older ones are compacted away. 0 keeps all.",
          "Applied every `--retention-interval-ms`: the space's floor rises (see Retention and compaction below). A"
          + " space's own retention, set with `SetRetention` (`feedctl retention`), replaces the three retain"
          + " settings for it. Retention is off by default: a space keeps everything until an operator says"
          + " otherwise."));

  /**
   * Oldest block a space keeps, by the time the server received it. 0 keeps all. {@code --retain-age-ms}, in
   * milliseconds: default 0, must be &gt;= 0 (0 keeps everything).
   */
  public static final Setting<Long> RETAIN_AGE_MS = define(Setting.ofLong("retain-age-ms", 0)
      .unit(MILLISECONDS).in(RETENTION).atLeast(0, "0 keeps everything")
      .doc("Oldest block a space keeps, by the time the server received it. 0 keeps all.",
          "In ms before now, by the block's receive time (the server's clock when it positioned the block):"
          + " everything from the first block within the age on is kept."));

  /**
   * Most bytes of block data a space keeps: the newest blocks whose data fits. 0 keeps all. {@code --retain-bytes}, in
   * bytes: default 0, must be &gt;= 0 (0 keeps everything).
   */
  public static final Setting<Long> RETAIN_BYTES = define(Setting.ofLong("retain-bytes", 0)
      .unit(BYTES).in(RETENTION).atLeast(0, "0 keeps everything")
      .doc("Most bytes of block data a space keeps: the newest blocks whose data fits. 0 keeps all."));

  /**
   * How often retention is applied to every space of the store, on a thread of its own. {@code
   * --retention-interval-ms}, in milliseconds: default 60000 (1 min), must be &gt; 0.
   */
  public static final Setting<Long> RETENTION_INTERVAL_MS = define(Setting.ofLong("retention-interval-ms", 60_000)
      .unit(MILLISECONDS).in(RETENTION).atLeast(1)
      .doc("How often retention is applied to every space of the store, on a thread of its own."));

  /**
   * Requests one principal (JWT subject, token, or client host without access control) may make per second, gRPC and
   * HTTP together; more are refused with when to retry. {@code --principal-requests-per-second}: default 10000, must be
   * &gt; 0.
   */
  public static final Setting<Long> PRINCIPAL_REQUESTS_PER_SECOND = define(Setting.ofLong(
      "principal-requests-per-second", 10_000).unit(COUNT).in(PRINCIPALS).atLeast(1)
      .doc("Requests one principal (JWT subject, token, or client host without access control) may make per second,"
          + " gRPC and HTTP together; more are refused with when to retry.",
          "Refused with `RESOURCE_EXHAUSTED` / 429. Above what one replica or the benchmark's busiest client sends"
          + " (about 3,000 appends a second one block at a time), far below what floods two cores. See Per-principal"
          + " limits below."));

  /**
   * Block data one principal may append per second. {@code --principal-append-bytes-per-second}, in bytes: default
   * 67108864 (64 MiB), must be &gt; 0.
   */
  public static final Setting<Long> PRINCIPAL_APPEND_BYTES_PER_SECOND = define(Setting.ofLong(
      "principal-append-bytes-per-second", 64L << 20).unit(BYTES).in(PRINCIPALS).atLeast(1)
      .doc("Block data one principal may append per second.",
          "Above what one client's pushes reach here (about 26 MiB/s of large blocks)."));

  /**
   * Live streams (Watch and Server-Sent Events) one principal may hold open. {@code --principal-streams}: default
   * 10000, must be &gt; 0.
   */
  public static final Setting<Integer> PRINCIPAL_STREAMS = define(Setting.ofInt("principal-streams",
      WATCHES_PER_SERVER.defaultValue()).unit(COUNT).in(PRINCIPALS).atLeast(1)
      .doc("Live streams (Watch and Server-Sent Events) one principal may hold open.",
          "As many as the whole server holds by default (`--watches-per-server`): lower it to share."));

  /**
   * Most requests of one AppendStream the server reads ahead of its answers. {@code --append-stream-window}: default
   * 64, must be &gt; 0.
   */
  public static final Setting<Integer> APPEND_STREAM_WINDOW = define(Setting.ofInt("append-stream-window", 64)
      .unit(COUNT).in(GRPC).atLeast(1)
      .doc("Most requests of one AppendStream the server reads ahead of its answers.",
          "A writer that keeps more Appends in flight on one stream waits (HTTP/2 flow control) instead of filling"
          + " the server's memory; 64 calls of one block each keep a writer's round trips hidden on a LAN."));

  /**
   * How long a client connection may be silent before the server sends it an HTTP/2 PING. {@code --keepalive-ms}, in
   * milliseconds: default 60000 (1 min), must be &gt;= 10000 (gRPC raises shorter keepalive times to 10 s).
   */
  public static final Setting<Long> KEEPALIVE_MS = define(Setting.ofLong("keepalive-ms", 60_000)
      .unit(MILLISECONDS).in(GRPC).atLeast(10_000, "gRPC raises shorter keepalive times to 10 s")
      .doc("How long a client connection may be silent before the server sends it an HTTP/2 PING.",
          "Applies to the socket the server opens itself. A vanished client is noticed within this +"
          + " `--keepalive-timeout-ms`."));

  /**
   * How long the server waits for a PING's answer before it closes the connection and ends its calls. {@code
   * --keepalive-timeout-ms}, in milliseconds: default 20000 (20 s), must be &gt;= 10 (gRPC raises shorter keepalive
   * timeouts to 10 ms).
   */
  public static final Setting<Long> KEEPALIVE_TIMEOUT_MS = define(Setting.ofLong("keepalive-timeout-ms", 20_000)
      .unit(MILLISECONDS).in(GRPC).atLeast(10, "gRPC raises shorter keepalive timeouts to 10 ms")
      .doc("How long the server waits for a PING's answer before it closes the connection and ends its calls.",
          "The Watch streams of a client that vanished without closing its connection are released within"
          + " `--keepalive-ms` + this."));

  /**
   * Shortest interval at which a client may send its own keepalive pings; a client that pings more often is
   * disconnected. {@code --permit-keepalive-ms}, in milliseconds: default 10000 (10 s), must be &gt; 0.
   */
  public static final Setting<Long> PERMIT_KEEPALIVE_MS = define(Setting.ofLong("permit-keepalive-ms", 10_000)
      .unit(MILLISECONDS).in(GRPC).atLeast(1)
      .doc("Shortest interval at which a client may send its own keepalive pings; a client that pings more often is"
          + " disconnected.",
          "Disconnected with `GOAWAY ENHANCE_YOUR_CALM`. Replicas ping after 15 s of silence to notice a dead link:"
          + " 10 s is gRPC's shortest client keepalive, while gRPC's own default permit, 5 min, would disconnect"
          + " them."));

  /**
   * Threads of the HTTP side (API and metrics endpoint); they only move bytes, never wait for a client. {@code
   * --http-threads}: default 16, must be &gt;= 4 (Jetty takes two for accepting and selecting, on each address).
   */
  public static final Setting<Integer> HTTP_THREADS = define(Setting.ofInt("http-threads", 16)
      .unit(COUNT).in(HTTP).atLeast(4, "Jetty takes two for accepting and selecting, on each address")
      .doc("Threads of the HTTP side (API and metrics endpoint); they only move bytes, never wait for a client.",
          "The store's work runs on `--rpc-threads`, so a few serve thousands of open event streams."));

  /**
   * How long an HTTP connection may be idle (a request not arriving, an answer not taken) before it is closed. {@code
   * --http-idle-timeout-ms}, in milliseconds: default 30000 (30 s), must be &gt; 0.
   */
  public static final Setting<Long> HTTP_IDLE_TIMEOUT_MS = define(Setting.ofLong("http-idle-timeout-ms", 30_000)
      .unit(MILLISECONDS).in(HTTP).atLeast(1)
      .doc("How long an HTTP connection may be idle (a request not arriving, an answer not taken) before it is"
          + " closed.",
          "An event stream may idle a heartbeat interval (`--heartbeat-ms`) more."));

  /**
   * How much of a refused HTTP request's body is read and discarded before the refusal is written, so that a client
   * still sending it reads the refusal (0 reads none). {@code --http-refused-body-bytes}, in bytes: default 67108864
   * (64 MiB), must be &gt;= 0 (0 reads none of a refused body).
   */
  public static final Setting<Long> HTTP_REFUSED_BODY_BYTES = define(Setting.ofLong("http-refused-body-bytes",
      64L << 20).unit(BYTES).in(HTTP).atLeast(0, "0 reads none of a refused body")
      .doc("How much of a refused HTTP request's body is read and discarded before the refusal is written, so that a"
          + " client still sending it reads the refusal (0 reads none).",
          "A refused body is one over a size limit, or refused before it was read. A client that sends its whole body"
          + " before it reads the answer then reads the refusal and keeps its connection; a larger body is answered"
          + " at once and its connection closed, so the client may see the connection break instead. 64 MiB is four"
          + " times the default `--max-message-bytes`, so a body just over a limit is read."));

  /**
   * How long a metrics client may take to send its request (and then to take its answer) before its connection is
   * closed. {@code --metrics-read-timeout-ms}, in milliseconds: default 5000 (5 s), must be &gt; 0.
   */
  public static final Setting<Long> METRICS_READ_TIMEOUT_MS = define(Setting.ofLong("metrics-read-timeout-ms", 5_000)
      .unit(MILLISECONDS).in(HTTP).atLeast(1)
      .doc("How long a metrics client may take to send its request (and then to take its answer) before its"
          + " connection is closed.",
          "A scraper sends its request at once; a client that takes longer is stalled or hostile."));

  /**
   * The space whose feeds are the Durable Streams under {@code /v1/stream/} of the HTTP API; a replica that replicates
   * it holds every stream. {@code --streams-space}: default {@code streams}, must be a space id: 1-128 of {@code
   * A-Za-z0-9._:-}.
   */
  public static final Setting<String> STREAMS_SPACE = define(Setting.ofText("streams-space", "streams")
      .unit(SPACE).in(DURABLE_STREAMS).form(SpaceId::new, "a space id: 1-128 of `A-Za-z0-9._:-`")
      .doc("The space whose feeds are the Durable Streams under `/v1/stream/` of the HTTP API; a replica that"
          + " replicates it holds every stream.",
          "Each stream, `/v1/stream/{name}`, is a feed of this space. A name no application is likely to use for its"
          + " own feeds. See Durable Streams below."));

  /**
   * How long a Durable Streams long-poll read waits for new data before it answers 204. {@code --streams-long-poll-ms},
   * in milliseconds: default 20000 (20 s), must be &gt; 0.
   */
  public static final Setting<Long> STREAMS_LONG_POLL_MS = define(Setting.ofLong("streams-long-poll-ms", 20_000)
      .unit(MILLISECONDS).in(DURABLE_STREAMS).atLeast(1)
      .doc("How long a Durable Streams long-poll read waits for new data before it answers 204.",
          "A read with `live=long-poll`. The protocol's cursor interval, so a CDN in front collapses one long-poll"
          + " per interval."));

  /**
   * About how long a Durable Streams event stream stays open before the server ends it (within 20 % either way, at
   * random); the client reads on from the last offset it got. {@code --streams-sse-ms}, in milliseconds: default 60000
   * (1 min), must be &gt; 0.
   */
  public static final Setting<Long> STREAMS_SSE_MS = define(Setting.ofLong("streams-sse-ms", 60_000)
      .unit(MILLISECONDS).in(DURABLE_STREAMS).atLeast(1)
      .doc("About how long a Durable Streams event stream stays open before the server ends it (within 20 % either"
          + " way, at random); the client reads on from the last offset it got.",
          "A read with `live=sse`. The protocol asks servers to end event streams about once a minute, so that a CDN"
          + " in front collapses the readers that reconnect onto one request to the server; the jitter keeps the"
          + " readers of a busy stream from reconnecting all at once."));

  /**
   * Threads that run request handlers, and the store's work for the HTTP side. {@code --rpc-threads}: default 16, must
   * be &gt; 0.
   */
  public static final Setting<Integer> RPC_THREADS = define(Setting.ofInt("rpc-threads", 16)
      .unit(COUNT).in(PROCESS).atLeast(1)
      .doc("Threads that run request handlers, and the store's work for the HTTP side."));

  /**
   * How long a shutdown lets calls in flight finish before cancelling them. {@code --shutdown-grace-ms}, in
   * milliseconds: default 10000 (10 s), must be &gt; 0.
   */
  public static final Setting<Long> SHUTDOWN_GRACE_MS = define(Setting.ofLong("shutdown-grace-ms", 10_000)
      .unit(MILLISECONDS).in(PROCESS).atLeast(1)
      .doc("How long a shutdown lets calls in flight finish before cancelling them."));

  /**
   * Rejected requests logged per minute; the rest are counted in one line as suppressed. {@code
   * --rejections-logged-per-minute}: default 20, must be &gt;= 0 (0 logs only counts).
   */
  public static final Setting<Integer> REJECTIONS_LOGGED_PER_MINUTE = define(Setting.ofInt(
      "rejections-logged-per-minute", 20).unit(COUNT).in(PROCESS).atLeast(0, "0 logs only counts")
      .doc("Rejected requests logged per minute; the rest are counted in one line as suppressed."));

  /** Every setting, in the order of {@code --help} and of the deployment guide's table. */
  public static final List<Setting<?>> ALL = List.copyOf(DEFINED);

  /** Every setting at its default. */
  public static final ServerSettings DEFAULTS = newBuilder().build();

  /** By {@link Setting#index()}. */
  private final Object[] values;

  private ServerSettings(Object[] values) {
    this.values = values;
  }

  /** The value of {@code setting}. */
  public <T> T get(Setting<T> setting) {
    return setting.type().cast(values[setting.index()]);
  }

  /** The data-model limits these settings imply, for the checks shared with other modules. */
  public Limits limits() {
    return new Limits(get(BLOCK_BYTES), get(BLOCKS_PER_APPEND), get(QUERY_LIMIT));
  }

  /**
   * An upper bound of the largest message the server sends: a Query page holds at most {@code
   * response-bytes} of blocks and a Watch batch {@code watch-batch-bytes}, or one block when it is
   * larger, plus the fields around them (per block at most a namespace entry; per message the ids
   * and the token). Clients learn it from GetServerInfo and accept messages of this size.
   */
  public long maxResponseBytes() {
    long blocks = Math.max(Math.max(get(RESPONSE_BYTES), get(WATCH_BATCH_BYTES)), get(BLOCK_BYTES) + 512L);
    return blocks + (long) get(QUERY_LIMIT) * 256 + 65_536;
  }

  /** The retention of a space that has none of its own: the three retain settings. */
  public Retention retention() {
    return Retention.of(get(RETAIN_BLOCKS), get(RETAIN_AGE_MS), get(RETAIN_BYTES));
  }

  /** A builder starting from the defaults. */
  public static Builder newBuilder() {
    Object[] defaults = new Object[DEFINED.size()];
    for (Setting<?> setting : DEFINED) {
      defaults[setting.index()] = setting.defaultValue();
    }
    return new Builder(defaults);
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(values.clone());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ServerSettings settings && Arrays.equals(values, settings.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  /** The settings that differ from their defaults, e.g. {@code ServerSettings[block-bytes=2048]}. */
  @Override
  public String toString() {
    StringJoiner changed = new StringJoiner(", ", "ServerSettings[", "]");
    for (Setting<?> setting : ALL) {
      if (!setting.defaultValue().equals(values[setting.index()])) {
        changed.add(setting.name() + "=" + values[setting.index()]);
      }
    }
    return changed.toString();
  }

  private static <T> Setting<T> define(Setting.Definition<T> definition) {
    Setting<T> setting = definition.build(DEFINED.size());
    for (Setting<?> defined : DEFINED) {
      if (defined.name().equals(setting.name())) {
        throw new IllegalStateException("two settings named " + setting.name());
      }
    }
    DEFINED.add(setting);
    return setting;
  }

  /** Collects settings; {@link #build} checks them. Not thread-safe. */
  public static final class Builder {
    private final Object[] values;

    private Builder(Object[] values) {
      this.values = values;
    }

    /** Sets {@code setting} to {@code value}; {@link #build} checks it. */
    public <T> Builder set(Setting<T> setting, T value) {
      values[setting.index()] = value;
      return this;
    }

    /** Sets a {@code Long} setting, so that {@code set(HEARTBEAT_MS, 500)} needs no {@code L}. */
    public Builder set(Setting<Long> setting, long value) {
      return set(setting, Long.valueOf(value));
    }

    /**
     * The settings.
     *
     * @throws dev.feedstore.core.InvalidValueException naming the setting whose value cannot work, and its rule:
     *     first each value against its own bounds, then against the settings it relates to
     */
    public ServerSettings build() {
      for (Setting<?> setting : ALL) {
        setting.check(values[setting.index()]);
      }
      for (Setting<?> setting : ALL) {
        setting.checkRelation(values);
      }
      return new ServerSettings(values.clone());
    }
  }
}
