package dev.feedstore.server;

import dev.feedstore.core.store.Retention;
import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.Limits;

/**
 * Every limit and tunable of the position authority, with its default. Each setting has a key
 * ({@link Key}) that is both its command-line flag ({@code --block-bytes}) and the name an error
 * gives when a request goes over it. Immutable; the compact constructor rejects values that cannot
 * work, naming the key.
 *
 * @param blockBytes the largest {@code data} of one block ({@code block-bytes})
 * @param blocksPerAppend the most blocks in one Append ({@code blocks-per-append})
 * @param queryLimit the largest {@code limit} a Query may ask for ({@code query-limit})
 * @param feedsPerScope the most feed ids and namespaces one scope may name: the {@code feed_ids} of
 *     a Query or Watch, the {@code feed_ids} and {@code namespaces} of a Subscribe together ({@code
 *     feeds-per-scope}). A scope is held in memory by every Watch stream that reads it and goes to
 *     storage in one statement, so it is bounded, at most by {@value #MAX_FEEDS_PER_SCOPE}
 * @param maxMessageBytes the largest request message gRPC accepts ({@code max-message-bytes}); it
 *     must hold at least one block of {@code blockBytes}
 * @param responseBytes how much block data one Query response or Watch batch carries at most
 *     ({@code response-bytes}); at least one block is always sent, so a response holds
 *     {@code max(responseBytes, one block)} plus framing. The default keeps responses under gRPC's
 *     default 4 MiB inbound limit of clients
 * @param watchesPerServer the most Watch streams open on the server ({@code watches-per-server})
 * @param watchesPerConnection the most Watch streams open on one client connection ({@code
 *     watches-per-connection})
 * @param watchScopeBytes the most heap the scopes of all open Watch streams may hold ({@code
 *     watch-scope-bytes}): a stream keeps its scope (16 bytes a feed id, about 100 a namespace) for
 *     its life, and one that would take more is refused
 * @param watchScopeBytesPerConnection the most heap the scopes of the Watch streams of one client
 *     connection may hold ({@code watch-scope-bytes-per-connection})
 * @param watchBatchBytes how much block data one Watch batch carries at most ({@code
 *     watch-batch-bytes}; one block always goes). A stream whose reader stopped reading holds about
 *     one batch in the transport's buffers (off the heap), so this bounds that memory: at most
 *     {@code watches-per-server x (watch-batch-bytes + one block)} plus HTTP/2 windows
 * @param watchBatchBlocks the most blocks in one Watch batch ({@code watch-batch-blocks}), at most
 *     {@code queryLimit}
 * @param subscriptionTtlMillis the TTL of a subscription whose request names none ({@code
 *     subscription-ttl-ms})
 * @param subscriptionMaxTtlMillis the longest TTL a subscription may ask for ({@code
 *     subscription-max-ttl-ms})
 * @param subscriptionsPerSpace the most stored subscriptions one space may have that have not
 *     expired ({@code subscriptions-per-space}): a Subscribe that would make more is refused.
 *     Counted in the store, in the transaction that stores the subscription, so every server
 *     sharing the store counts the same
 * @param heartbeatMillis how often idle Watch streams get a heartbeat, and how often the
 *     subscriptions of open streams are renewed and checked ({@code heartbeat-ms})
 * @param tailBlocks how many recently committed blocks are kept in memory per watched space, so
 *     that live watchers share them instead of each reading storage ({@code tail-blocks})
 * @param tailBytes the most block data kept in that memory per watched space ({@code tail-bytes})
 * @param sharedPages how many pages read from storage are kept per watched space for the streams
 *     that fell behind its recent blocks, each read once and shared ({@code shared-pages}). Each
 *     holds at most one Watch batch ({@code watch-batch-bytes}) and its encoded frame; they are
 *     held only after streams fell behind, and dropped with the space's last watcher
 * @param sharedPagesBytes the most memory those pages may hold in all watched spaces together
 *     ({@code shared-pages-bytes}, a page counting twice its blocks' data: the blocks and their
 *     frame); beyond it the pages kept longest are dropped, and 0 keeps none (every stream behind
 *     reads its own)
 * @param shutdownGraceMillis how long a shutdown waits for calls in flight before cancelling them
 *     ({@code shutdown-grace-ms})
 * @param rejectionsLoggedPerMinute how many rejected requests are logged per minute; the rest are
 *     counted and reported as suppressed ({@code rejections-logged-per-minute}, 0 logs only counts)
 * @param rpcThreads the threads that run request handlers ({@code rpc-threads})
 * @param watchThreads the threads that feed Watch streams ({@code watch-threads})
 * @param spacesPerServer the most spaces the server serves from its store ({@code
 *     spaces-per-server}): the first Append to a space creates it (a read creates nothing), and
 *     every space stays in the file and, once touched, in memory (about 500 bytes)
 * @param feedsPerSpace the most feeds one space may have ({@code feeds-per-space}): an Append that
 *     would create more is refused. Counted in the store, in the transaction that creates feeds
 * @param appendGroupBlocks the most blocks of waiting appends committed together in one transaction
 *     ({@code append-group-blocks}): appends that arrive while a commit is in flight wait and are
 *     committed together as the next group, up to this many blocks (an append larger than this is a
 *     group of its own); 1 commits every append alone
 * @param keepaliveMillis how long a client connection may be silent before the server sends it an
 *     HTTP/2 PING ({@code keepalive-ms}, at least 10 s); applies to the socket the server opens itself
 * @param keepaliveTimeoutMillis how long the server waits for the answer to that PING before it
 *     closes the connection and ends its calls ({@code keepalive-timeout-ms}), so that the Watch
 *     streams of a client that vanished without closing its connection are freed
 * @param quickCheckMillis how long SQLite's {@code PRAGMA quick_check} may read the database file
 *     when the runnable server starts ({@code quick-check-ms}; 0 skips it): a file it finds damaged
 *     is refused, and a check that runs out of time names the tables it did not check whole and the
 *     server starts
 * @param metricsReadTimeoutMillis how long a client of the metrics endpoint may take to send its
 *     request ({@code metrics-read-timeout-ms}); a connection that has not sent a whole request by
 *     then is closed, so a slow or stalled client cannot hold the endpoint
 * @param writeProbeMillis how often the server commits a tiny write to learn whether its storage
 *     takes writes ({@code write-probe-ms}); the health service says NOT_SERVING from a failed write
 *     until a probe succeeds again
 * @param permitKeepaliveMillis the shortest interval at which the server lets a client send its own
 *     keepalive pings ({@code permit-keepalive-ms}); a client that pings more often is disconnected
 *     (HTTP/2 GOAWAY {@code ENHANCE_YOUR_CALM}). Replicas ping to notice a dead link, so the
 *     default allows gRPC's shortest client keepalive, 10 s; gRPC's own default would be 5 min
 * @param httpThreads the threads of the HTTP side (the API and the metrics endpoint) that move
 *     bytes ({@code http-threads}); they never wait for a client or the store, so a few serve
 *     thousands of open event streams
 * @param httpIdleTimeoutMillis how long an HTTP connection may be idle (a request not arriving, an
 *     answer not taken) before it is closed ({@code http-idle-timeout-ms}); an event stream may be
 *     idle for a heartbeat interval on top of it
 * @param httpRefusedBodyBytes how much of a refused HTTP request's body the server reads and
 *     discards before it writes the refusal ({@code http-refused-body-bytes}; 0 reads none). A
 *     client that sends its whole body before it reads the answer then reads the refusal, and the
 *     connection stays open; a refused body larger than this is answered at once and its
 *     connection closed, so the client may see the connection break instead of the answer
 * @param principalRequestsPerSecond the requests one principal (a JWT's subject, a static token,
 *     or a client host on a server without access control) may make per second, over gRPC and
 *     HTTP together ({@code principal-requests-per-second}); more are refused with {@code
 *     RESOURCE_EXHAUSTED} / 429 and when to retry
 * @param principalAppendBytesPerSecond the block data one principal may append per second ({@code
 *     principal-append-bytes-per-second})
 * @param principalStreams the live streams (Watch and Server-Sent Events) one principal may hold
 *     open ({@code principal-streams})
 * @param streamsSpace the space whose feeds are the Durable Streams served under {@code
 *     /v1/stream/} ({@code streams-space}); a replica that replicates it holds every stream
 * @param streamsLongPollMillis how long a Durable Streams long-poll read waits for new data before
 *     it answers 204 ({@code streams-long-poll-ms})
 * @param retainBlocks the most blocks a space keeps ({@code retain-blocks}); 0 keeps all. A space's
 *     own retention (set by an administrator) replaces the three retain settings for it
 * @param retainAgeMillis the oldest block a space keeps, in ms before now, by the block's receive time
 *     ({@code retain-age-ms}); 0 keeps all
 * @param retainBytes the most bytes of block data a space keeps ({@code retain-bytes}); 0 keeps all
 * @param retentionIntervalMillis how often retention is applied to the spaces of the store ({@code
 *     retention-interval-ms})
 */
public record ServerSettings(
    int blockBytes,
    int blocksPerAppend,
    int queryLimit,
    int feedsPerScope,
    int maxMessageBytes,
    int responseBytes,
    int watchesPerServer,
    int watchesPerConnection,
    long watchScopeBytes,
    long watchScopeBytesPerConnection,
    int watchBatchBlocks,
    int watchBatchBytes,
    long subscriptionTtlMillis,
    long subscriptionMaxTtlMillis,
    int subscriptionsPerSpace,
    long heartbeatMillis,
    int tailBlocks,
    long tailBytes,
    int sharedPages,
    long sharedPagesBytes,
    long shutdownGraceMillis,
    int rejectionsLoggedPerMinute,
    int rpcThreads,
    int watchThreads,
    int spacesPerServer,
    int feedsPerSpace,
    int appendGroupBlocks,
    long keepaliveMillis,
    long keepaliveTimeoutMillis,
    long quickCheckMillis,
    long metricsReadTimeoutMillis,
    long writeProbeMillis,
    long permitKeepaliveMillis,
    int httpThreads,
    long httpIdleTimeoutMillis,
    long httpRefusedBodyBytes,
    long principalRequestsPerSecond,
    long principalAppendBytesPerSecond,
    int principalStreams,
    String streamsSpace,
    long streamsLongPollMillis,
    long retainBlocks,
    long retainAgeMillis,
    long retainBytes,
    long retentionIntervalMillis) {

  /** The keys of the settings: command-line flags without the dashes, and names in errors. */
  public static final class Key {
    private Key() {}

    public static final String BLOCK_BYTES = Limits.Key.BLOCK_BYTES;
    public static final String BLOCKS_PER_APPEND = Limits.Key.BLOCKS_PER_APPEND;
    public static final String QUERY_LIMIT = Limits.Key.QUERY_LIMIT;
    public static final String FEEDS_PER_SCOPE = "feeds-per-scope";
    public static final String MAX_MESSAGE_BYTES = "max-message-bytes";
    public static final String RESPONSE_BYTES = "response-bytes";
    public static final String WATCHES_PER_SERVER = "watches-per-server";
    public static final String WATCHES_PER_CONNECTION = "watches-per-connection";
    public static final String WATCH_SCOPE_BYTES = "watch-scope-bytes";
    public static final String WATCH_SCOPE_BYTES_PER_CONNECTION = "watch-scope-bytes-per-connection";
    public static final String WATCH_BATCH_BLOCKS = "watch-batch-blocks";
    public static final String WATCH_BATCH_BYTES = "watch-batch-bytes";
    public static final String SUBSCRIPTION_TTL_MS = "subscription-ttl-ms";
    public static final String SUBSCRIPTION_MAX_TTL_MS = "subscription-max-ttl-ms";
    public static final String SUBSCRIPTIONS_PER_SPACE = "subscriptions-per-space";
    public static final String HEARTBEAT_MS = "heartbeat-ms";
    public static final String TAIL_BLOCKS = "tail-blocks";
    public static final String TAIL_BYTES = "tail-bytes";
    public static final String SHARED_PAGES = "shared-pages";
    public static final String SHARED_PAGES_BYTES = "shared-pages-bytes";
    public static final String SHUTDOWN_GRACE_MS = "shutdown-grace-ms";
    public static final String REJECTIONS_LOGGED_PER_MINUTE = "rejections-logged-per-minute";
    public static final String RPC_THREADS = "rpc-threads";
    public static final String WATCH_THREADS = "watch-threads";
    public static final String SPACES_PER_SERVER = "spaces-per-server";
    public static final String FEEDS_PER_SPACE = "feeds-per-space";
    public static final String APPEND_GROUP_BLOCKS = "append-group-blocks";
    public static final String KEEPALIVE_MS = "keepalive-ms";
    public static final String KEEPALIVE_TIMEOUT_MS = "keepalive-timeout-ms";
    public static final String QUICK_CHECK_MS = "quick-check-ms";
    public static final String METRICS_READ_TIMEOUT_MS = "metrics-read-timeout-ms";
    public static final String WRITE_PROBE_MS = "write-probe-ms";
    public static final String HTTP_THREADS = "http-threads";
    public static final String HTTP_IDLE_TIMEOUT_MS = "http-idle-timeout-ms";
    public static final String HTTP_REFUSED_BODY_BYTES = "http-refused-body-bytes";
    public static final String PRINCIPAL_REQUESTS_PER_SECOND = "principal-requests-per-second";
    public static final String PRINCIPAL_APPEND_BYTES_PER_SECOND = "principal-append-bytes-per-second";
    public static final String PRINCIPAL_STREAMS = "principal-streams";
    public static final String RETAIN_BLOCKS = "retain-blocks";
    public static final String RETAIN_AGE_MS = "retain-age-ms";
    public static final String RETAIN_BYTES = "retain-bytes";
    public static final String RETENTION_INTERVAL_MS = "retention-interval-ms";
    public static final String PERMIT_KEEPALIVE_MS = "permit-keepalive-ms";
    public static final String STREAMS_SPACE = "streams-space";
    public static final String STREAMS_LONG_POLL_MS = "streams-long-poll-ms";
  }

  public static final int DEFAULT_BLOCK_BYTES = Limits.DEFAULT_BLOCK_BYTES;
  public static final int DEFAULT_BLOCKS_PER_APPEND = Limits.DEFAULT_BLOCKS_PER_APPEND;
  public static final int DEFAULT_QUERY_LIMIT = Limits.DEFAULT_QUERY_LIMIT;
  /** 1,000: a replica's client lists at most 64 feeds in a read and subscribes for more. */
  public static final int DEFAULT_FEEDS_PER_SCOPE = 1_000;
  /**
   * 5,000: the SQLite store reads a scope with one statement that names each feed id (26
   * characters) or namespace (up to 128); 5,000 of the longest stay well under SQLite's default
   * statement length of 1,000,000 bytes, which 40,000 feed ids exceed.
   */
  public static final int MAX_FEEDS_PER_SCOPE = 5_000;
  /**
   * 16 MiB: one block of the largest default size (1 MiB) fits many times over, as does a batch of
   * 1,000 blocks of up to ~16 KiB, while a handful of concurrent oversized requests cannot exhaust
   * a default heap. gRPC itself would stop at 4 MiB, too little for batches of large blocks.
   */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 << 20;
  /** 3 MiB: with framing, under the 4 MiB that gRPC clients accept by default. */
  public static final int DEFAULT_RESPONSE_BYTES = 3 << 20;
  public static final int DEFAULT_WATCHES_PER_SERVER = 10_000;
  public static final int DEFAULT_WATCHES_PER_CONNECTION = 1_000;
  /**
   * 64 MiB: a quarter of a 256 MiB heap, the smallest the deployment guide plans for; 4,000
   * streams of 1,000 feed ids each (16 KiB a scope), or any number that list a namespace or watch
   * the whole space.
   */
  public static final long DEFAULT_WATCH_SCOPE_BYTES = 64L << 20;
  /**
   * 16 MiB: a quarter of {@link #DEFAULT_WATCH_SCOPE_BYTES}, so one client cannot take it all;
   * still enough for {@link #DEFAULT_WATCHES_PER_CONNECTION} streams of 1,000 feed ids each.
   */
  public static final long DEFAULT_WATCH_SCOPE_BYTES_PER_CONNECTION = 16L << 20;
  public static final int DEFAULT_WATCH_BATCH_BLOCKS = 100;
  public static final int DEFAULT_WATCH_BATCH_BYTES = 256 << 10;
  public static final long DEFAULT_SUBSCRIPTION_TTL_MS = 60 * 60 * 1000L;
  public static final long DEFAULT_SUBSCRIPTION_MAX_TTL_MS = 24 * 60 * 60 * 1000L;
  /**
   * 10,000: a subscription per client of a busy space, renewed while in use; with {@code
   * feeds-per-scope} ids each at most, a space's subscriptions stay within a bounded size.
   */
  public static final int DEFAULT_SUBSCRIPTIONS_PER_SPACE = 10_000;
  public static final long DEFAULT_HEARTBEAT_MS = 15_000;
  public static final int DEFAULT_TAIL_BLOCKS = 4096;
  public static final long DEFAULT_TAIL_BYTES = 16 << 20;
  /**
   * 512: enough for 1,000 streams that fell behind at as many points, a page apart, on one core
   * (feed-bench fan-out at 1.5 times what one core keeps up with). About 80 KiB a page of 100
   * blocks of 256 bytes, 40 MiB when all are in use.
   */
  public static final int DEFAULT_SHARED_PAGES = 512;
  /** The most pages {@code shared-pages} may keep per space. */
  public static final int MAX_SHARED_PAGES = 65_536;
  /**
   * 64 MiB: the 512 pages of one space whose streams all fell behind (about 80 KiB a page of 100
   * blocks of 256 bytes), with room to spare, and a quarter of a 256 MiB heap.
   */
  public static final long DEFAULT_SHARED_PAGES_BYTES = 64L << 20;
  public static final long DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
  public static final int DEFAULT_REJECTIONS_LOGGED_PER_MINUTE = 20;
  public static final int DEFAULT_RPC_THREADS = 16;
  public static final int DEFAULT_WATCH_THREADS = 4;
  public static final int DEFAULT_SPACES_PER_SERVER = 100_000;
  /**
   * 1,000,000: far above what an application's space holds (a feed per user and document), while
   * one client cannot make a space grow without end; the store's memory does not grow with feeds
   * (its cache of feed rows is bounded).
   */
  public static final int DEFAULT_FEEDS_PER_SPACE = 1_000_000;
  /**
   * 1,000, the default of blocks-per-append: a group's transaction is never larger than the largest
   * single Append the server takes by default, and 100 clients appending 10 blocks each fit in one.
   */
  public static final int DEFAULT_APPEND_GROUP_BLOCKS = 1_000;
  /** One minute: a vanished client is noticed within keepalive-ms + keepalive-timeout-ms. */
  public static final long DEFAULT_KEEPALIVE_MS = 60_000;
  public static final long DEFAULT_KEEPALIVE_TIMEOUT_MS = 20_000;
  /** 10 s, gRPC's shortest client keepalive time: replicas may ping as often as gRPC lets them. */
  public static final long DEFAULT_PERMIT_KEEPALIVE_MS = 10_000;
  /** gRPC's smallest keepalive time; it raises shorter ones to this. */
  public static final long MIN_KEEPALIVE_MS = 10_000;
  /** gRPC's smallest keepalive timeout. */
  public static final long MIN_KEEPALIVE_TIMEOUT_MS = 10;
  /**
   * 20 s: a start stays within the 30 s a Kubernetes liveness probe of the deployment guide allows.
   * Measured on a 1.1 GB store: 4.2 s with the file in the page cache, 29 s read cold from the
   * shared disk of a small build machine, so a file of some GiB is checked whole when it was recently
   * used (a restart) and partly, with a warning, after a reboot.
   */
  public static final long DEFAULT_QUICK_CHECK_MS = 20_000;
  /** 5 s: a scraper sends its request at once; a client that takes longer is stalled or hostile. */
  public static final long DEFAULT_METRICS_READ_TIMEOUT_MS = 5_000;
  /**
   * Five seconds: a load balancer that checks health every few seconds learns of a disk that stopped
   * taking writes, or took them again, within about that, for one small commit per interval.
   */
  public static final long DEFAULT_WRITE_PROBE_MS = 5_000;

  /** 16: the HTTP side's threads only move bytes (the store's work runs on the rpc threads). */
  public static final int DEFAULT_HTTP_THREADS = 16;
  public static final long DEFAULT_HTTP_IDLE_TIMEOUT_MS = 30_000;
  /** 64 MiB: four times the default {@code max-message-bytes}, so a body just over a limit is read. */
  public static final long DEFAULT_HTTP_REFUSED_BODY_BYTES = 64L << 20;
  /**
   * 10,000: above what one replica or the benchmark's busiest client sends (about 3,000 appends a
   * second one block at a time), far below what floods two cores.
   */
  public static final long DEFAULT_PRINCIPAL_REQUESTS_PER_SECOND = 10_000;
  /** 64 MiB a second: above what one client's pushes reach here (about 26 MiB/s of large blocks). */
  public static final long DEFAULT_PRINCIPAL_APPEND_BYTES_PER_SECOND = 64L << 20;
  /** As many as the whole server holds by default ({@link #DEFAULT_WATCHES_PER_SERVER}): lower it to share. */
  public static final int DEFAULT_PRINCIPAL_STREAMS = DEFAULT_WATCHES_PER_SERVER;
  /** The space of Durable Streams: a name no application is likely to use for its own feeds. */
  public static final String DEFAULT_STREAMS_SPACE = "streams";
  /** 20 seconds: the protocol's cursor interval, so a CDN in front collapses one long-poll per interval. */
  public static final long DEFAULT_STREAMS_LONG_POLL_MS = 20_000;
  /** Retention is off by default: a space keeps everything until an operator says otherwise. */
  public static final long DEFAULT_RETAIN_BLOCKS = 0;
  public static final long DEFAULT_RETAIN_AGE_MS = 0;
  public static final long DEFAULT_RETAIN_BYTES = 0;
  public static final long DEFAULT_RETENTION_INTERVAL_MS = 60_000;

  /** Every setting at its default. */
  public static final ServerSettings DEFAULTS = newBuilder().build();

  public ServerSettings {
    positive(Key.BLOCK_BYTES, blockBytes);
    positive(Key.BLOCKS_PER_APPEND, blocksPerAppend);
    positive(Key.QUERY_LIMIT, queryLimit);
    positive(Key.FEEDS_PER_SCOPE, feedsPerScope);
    if (feedsPerScope > MAX_FEEDS_PER_SCOPE) {
      throw new InvalidValueException(Key.FEEDS_PER_SCOPE,
          "must be <= " + MAX_FEEDS_PER_SCOPE + " (a larger scope does not fit in one statement of the store)",
          feedsPerScope);
    }
    positive(Key.MAX_MESSAGE_BYTES, maxMessageBytes);
    positive(Key.RESPONSE_BYTES, responseBytes);
    positive(Key.WATCHES_PER_SERVER, watchesPerServer);
    positive(Key.WATCHES_PER_CONNECTION, watchesPerConnection);
    positive(Key.WATCH_SCOPE_BYTES, watchScopeBytes);
    positive(Key.WATCH_SCOPE_BYTES_PER_CONNECTION, watchScopeBytesPerConnection);
    positive(Key.WATCH_BATCH_BLOCKS, watchBatchBlocks);
    positive(Key.WATCH_BATCH_BYTES, watchBatchBytes);
    positive(Key.SUBSCRIPTION_TTL_MS, subscriptionTtlMillis);
    positive(Key.SUBSCRIPTION_MAX_TTL_MS, subscriptionMaxTtlMillis);
    positive(Key.SUBSCRIPTIONS_PER_SPACE, subscriptionsPerSpace);
    positive(Key.HEARTBEAT_MS, heartbeatMillis);
    positive(Key.TAIL_BLOCKS, tailBlocks);
    positive(Key.TAIL_BYTES, tailBytes);
    if (sharedPages < 1 || sharedPages > MAX_SHARED_PAGES) {
      throw new InvalidValueException(Key.SHARED_PAGES, "must be 1 to " + MAX_SHARED_PAGES, sharedPages);
    }
    if (sharedPagesBytes < 0) {
      throw new InvalidValueException(Key.SHARED_PAGES_BYTES,
          "must be >= 0 (0 keeps no page: every stream behind reads its own)", sharedPagesBytes);
    }
    positive(Key.SHUTDOWN_GRACE_MS, shutdownGraceMillis);
    if (rejectionsLoggedPerMinute < 0) {
      throw new InvalidValueException(Key.REJECTIONS_LOGGED_PER_MINUTE, "must be >= 0", rejectionsLoggedPerMinute);
    }
    positive(Key.RPC_THREADS, rpcThreads);
    positive(Key.WATCH_THREADS, watchThreads);
    positive(Key.SPACES_PER_SERVER, spacesPerServer);
    positive(Key.FEEDS_PER_SPACE, feedsPerSpace);
    positive(Key.APPEND_GROUP_BLOCKS, appendGroupBlocks);
    if (keepaliveMillis < MIN_KEEPALIVE_MS) {
      throw new InvalidValueException(Key.KEEPALIVE_MS,
          "must be >= " + MIN_KEEPALIVE_MS + " (gRPC raises shorter keepalive times to 10 s)", keepaliveMillis);
    }
    if (keepaliveTimeoutMillis < MIN_KEEPALIVE_TIMEOUT_MS) {
      throw new InvalidValueException(Key.KEEPALIVE_TIMEOUT_MS,
          "must be >= " + MIN_KEEPALIVE_TIMEOUT_MS + " (gRPC raises shorter keepalive timeouts to 10 ms)",
          keepaliveTimeoutMillis);
    }
    if (quickCheckMillis < 0) {
      throw new InvalidValueException(Key.QUICK_CHECK_MS, "must be >= 0 (0 skips the check)", quickCheckMillis);
    }
    positive(Key.METRICS_READ_TIMEOUT_MS, metricsReadTimeoutMillis);
    positive(Key.WRITE_PROBE_MS, writeProbeMillis);
    positive(Key.PERMIT_KEEPALIVE_MS, permitKeepaliveMillis);
    positive(Key.HTTP_THREADS, httpThreads);
    if (httpThreads < 4) {
      throw new InvalidValueException(Key.HTTP_THREADS, "must be >= 4 (Jetty takes two for accepting and selecting,"
          + " on each address)", httpThreads);
    }
    positive(Key.HTTP_IDLE_TIMEOUT_MS, httpIdleTimeoutMillis);
    if (httpRefusedBodyBytes < 0) {
      throw new InvalidValueException(Key.HTTP_REFUSED_BODY_BYTES, "must be >= 0 (0 reads none of a refused body)",
          httpRefusedBodyBytes);
    }
    positive(Key.PRINCIPAL_REQUESTS_PER_SECOND, principalRequestsPerSecond);
    positive(Key.PRINCIPAL_APPEND_BYTES_PER_SECOND, principalAppendBytesPerSecond);
    positive(Key.PRINCIPAL_STREAMS, principalStreams);
    java.util.Objects.requireNonNull(streamsSpace, Key.STREAMS_SPACE);
    try {
      new dev.feedstore.core.SpaceId(streamsSpace);
    } catch (InvalidValueException e) {
      throw e.withField(Key.STREAMS_SPACE);
    }
    positive(Key.STREAMS_LONG_POLL_MS, streamsLongPollMillis);
    notNegative(Key.RETAIN_BLOCKS, retainBlocks);
    notNegative(Key.RETAIN_AGE_MS, retainAgeMillis);
    notNegative(Key.RETAIN_BYTES, retainBytes);
    positive(Key.RETENTION_INTERVAL_MS, retentionIntervalMillis);
    if (maxMessageBytes <= blockBytes) {
      throw new InvalidValueException(Key.MAX_MESSAGE_BYTES,
          "must be above " + Key.BLOCK_BYTES + " (" + blockBytes + ") so that a block of the largest size fits",
          maxMessageBytes);
    }
    if (watchBatchBlocks > queryLimit) {
      throw new InvalidValueException(Key.WATCH_BATCH_BLOCKS,
          "must be <= " + Key.QUERY_LIMIT + " (" + queryLimit + ")", watchBatchBlocks);
    }
    if (subscriptionTtlMillis > subscriptionMaxTtlMillis) {
      throw new InvalidValueException(Key.SUBSCRIPTION_TTL_MS,
          "must be <= " + Key.SUBSCRIPTION_MAX_TTL_MS + " (" + subscriptionMaxTtlMillis + ")", subscriptionTtlMillis);
    }
  }

  /** The data-model limits these settings imply, for the checks shared with other modules. */
  public Limits limits() {
    return new Limits(blockBytes, blocksPerAppend, queryLimit);
  }

  /**
   * An upper bound of the largest message the server sends: a Query page holds at most {@code
   * response-bytes} of blocks and a Watch batch {@code watch-batch-bytes}, or one block when it is
   * larger, plus the fields around them (per block at most a namespace entry; per message the ids
   * and the token). Clients learn it from GetServerInfo and accept messages of this size.
   */
  public long maxResponseBytes() {
    long blocks = Math.max(Math.max(responseBytes, watchBatchBytes), blockBytes + 512L);
    return blocks + (long) queryLimit * 256 + 65_536;
  }

  /** A builder starting from the defaults. */
  public static Builder newBuilder() {
    return new Builder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The retention of a space that has none of its own: the three retain settings. */
  public Retention retention() {
    return Retention.of(retainBlocks, retainAgeMillis, retainBytes);
  }

  private static void notNegative(String key, long value) {
    if (value < 0) {
      throw new InvalidValueException(key, "must be >= 0 (0 keeps everything)", value);
    }
  }

  private static void positive(String key, long value) {
    if (value <= 0) {
      throw new InvalidValueException(key, "must be > 0", value);
    }
  }

  /** Collects settings; {@link #build} validates them. Not thread-safe. */
  public static final class Builder {
    private int blockBytes = DEFAULT_BLOCK_BYTES;
    private int blocksPerAppend = DEFAULT_BLOCKS_PER_APPEND;
    private int queryLimit = DEFAULT_QUERY_LIMIT;
    private int feedsPerScope = DEFAULT_FEEDS_PER_SCOPE;
    private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int responseBytes = DEFAULT_RESPONSE_BYTES;
    private int watchesPerServer = DEFAULT_WATCHES_PER_SERVER;
    private int watchesPerConnection = DEFAULT_WATCHES_PER_CONNECTION;
    private long watchScopeBytes = DEFAULT_WATCH_SCOPE_BYTES;
    private long watchScopeBytesPerConnection = DEFAULT_WATCH_SCOPE_BYTES_PER_CONNECTION;
    private int watchBatchBlocks = DEFAULT_WATCH_BATCH_BLOCKS;
    private int watchBatchBytes = DEFAULT_WATCH_BATCH_BYTES;
    private long subscriptionTtlMillis = DEFAULT_SUBSCRIPTION_TTL_MS;
    private long subscriptionMaxTtlMillis = DEFAULT_SUBSCRIPTION_MAX_TTL_MS;
    private int subscriptionsPerSpace = DEFAULT_SUBSCRIPTIONS_PER_SPACE;
    private long heartbeatMillis = DEFAULT_HEARTBEAT_MS;
    private int tailBlocks = DEFAULT_TAIL_BLOCKS;
    private long tailBytes = DEFAULT_TAIL_BYTES;
    private int sharedPages = DEFAULT_SHARED_PAGES;
    private long sharedPagesBytes = DEFAULT_SHARED_PAGES_BYTES;
    private long shutdownGraceMillis = DEFAULT_SHUTDOWN_GRACE_MS;
    private int rejectionsLoggedPerMinute = DEFAULT_REJECTIONS_LOGGED_PER_MINUTE;
    private int rpcThreads = DEFAULT_RPC_THREADS;
    private int watchThreads = DEFAULT_WATCH_THREADS;
    private int spacesPerServer = DEFAULT_SPACES_PER_SERVER;
    private int feedsPerSpace = DEFAULT_FEEDS_PER_SPACE;
    private int appendGroupBlocks = DEFAULT_APPEND_GROUP_BLOCKS;
    private long keepaliveMillis = DEFAULT_KEEPALIVE_MS;
    private long keepaliveTimeoutMillis = DEFAULT_KEEPALIVE_TIMEOUT_MS;
    private long quickCheckMillis = DEFAULT_QUICK_CHECK_MS;
    private long metricsReadTimeoutMillis = DEFAULT_METRICS_READ_TIMEOUT_MS;
    private long writeProbeMillis = DEFAULT_WRITE_PROBE_MS;
    private long permitKeepaliveMillis = DEFAULT_PERMIT_KEEPALIVE_MS;
    private int httpThreads = DEFAULT_HTTP_THREADS;
    private long httpIdleTimeoutMillis = DEFAULT_HTTP_IDLE_TIMEOUT_MS;
    private long httpRefusedBodyBytes = DEFAULT_HTTP_REFUSED_BODY_BYTES;
    private long principalRequestsPerSecond = DEFAULT_PRINCIPAL_REQUESTS_PER_SECOND;
    private long principalAppendBytesPerSecond = DEFAULT_PRINCIPAL_APPEND_BYTES_PER_SECOND;
    private int principalStreams = DEFAULT_PRINCIPAL_STREAMS;
    private String streamsSpace = DEFAULT_STREAMS_SPACE;
    private long streamsLongPollMillis = DEFAULT_STREAMS_LONG_POLL_MS;
    private long retainBlocks = DEFAULT_RETAIN_BLOCKS;
    private long retainAgeMillis = DEFAULT_RETAIN_AGE_MS;
    private long retainBytes = DEFAULT_RETAIN_BYTES;
    private long retentionIntervalMillis = DEFAULT_RETENTION_INTERVAL_MS;

    private Builder() {}

    private Builder(ServerSettings s) {
      blockBytes = s.blockBytes;
      blocksPerAppend = s.blocksPerAppend;
      queryLimit = s.queryLimit;
      feedsPerScope = s.feedsPerScope;
      maxMessageBytes = s.maxMessageBytes;
      responseBytes = s.responseBytes;
      watchesPerServer = s.watchesPerServer;
      watchesPerConnection = s.watchesPerConnection;
      watchScopeBytes = s.watchScopeBytes;
      watchScopeBytesPerConnection = s.watchScopeBytesPerConnection;
      watchBatchBlocks = s.watchBatchBlocks;
      watchBatchBytes = s.watchBatchBytes;
      subscriptionTtlMillis = s.subscriptionTtlMillis;
      subscriptionMaxTtlMillis = s.subscriptionMaxTtlMillis;
      subscriptionsPerSpace = s.subscriptionsPerSpace;
      heartbeatMillis = s.heartbeatMillis;
      tailBlocks = s.tailBlocks;
      tailBytes = s.tailBytes;
      sharedPages = s.sharedPages;
      sharedPagesBytes = s.sharedPagesBytes;
      shutdownGraceMillis = s.shutdownGraceMillis;
      rejectionsLoggedPerMinute = s.rejectionsLoggedPerMinute;
      rpcThreads = s.rpcThreads;
      watchThreads = s.watchThreads;
      spacesPerServer = s.spacesPerServer;
      feedsPerSpace = s.feedsPerSpace;
      appendGroupBlocks = s.appendGroupBlocks;
      keepaliveMillis = s.keepaliveMillis;
      keepaliveTimeoutMillis = s.keepaliveTimeoutMillis;
      quickCheckMillis = s.quickCheckMillis;
      metricsReadTimeoutMillis = s.metricsReadTimeoutMillis;
      writeProbeMillis = s.writeProbeMillis;
      permitKeepaliveMillis = s.permitKeepaliveMillis;
      httpThreads = s.httpThreads;
      httpIdleTimeoutMillis = s.httpIdleTimeoutMillis;
      httpRefusedBodyBytes = s.httpRefusedBodyBytes;
      principalRequestsPerSecond = s.principalRequestsPerSecond;
      principalAppendBytesPerSecond = s.principalAppendBytesPerSecond;
      principalStreams = s.principalStreams;
      streamsSpace = s.streamsSpace;
      streamsLongPollMillis = s.streamsLongPollMillis;
      retainBlocks = s.retainBlocks;
      retainAgeMillis = s.retainAgeMillis;
      retainBytes = s.retainBytes;
      retentionIntervalMillis = s.retentionIntervalMillis;
    }

    public Builder blockBytes(int value) {
      blockBytes = value;
      return this;
    }

    public Builder blocksPerAppend(int value) {
      blocksPerAppend = value;
      return this;
    }

    public Builder queryLimit(int value) {
      queryLimit = value;
      return this;
    }

    public Builder feedsPerScope(int value) {
      feedsPerScope = value;
      return this;
    }

    public Builder maxMessageBytes(int value) {
      maxMessageBytes = value;
      return this;
    }

    public Builder responseBytes(int value) {
      responseBytes = value;
      return this;
    }

    public Builder watchesPerServer(int value) {
      watchesPerServer = value;
      return this;
    }

    public Builder watchesPerConnection(int value) {
      watchesPerConnection = value;
      return this;
    }

    public Builder watchScopeBytes(long value) {
      watchScopeBytes = value;
      return this;
    }

    public Builder watchScopeBytesPerConnection(long value) {
      watchScopeBytesPerConnection = value;
      return this;
    }

    public Builder watchBatchBytes(int value) {
      watchBatchBytes = value;
      return this;
    }

    public Builder watchBatchBlocks(int value) {
      watchBatchBlocks = value;
      return this;
    }

    public Builder subscriptionTtlMillis(long value) {
      subscriptionTtlMillis = value;
      return this;
    }

    public Builder subscriptionMaxTtlMillis(long value) {
      subscriptionMaxTtlMillis = value;
      return this;
    }

    public Builder subscriptionsPerSpace(int value) {
      subscriptionsPerSpace = value;
      return this;
    }

    public Builder heartbeatMillis(long value) {
      heartbeatMillis = value;
      return this;
    }

    public Builder tailBlocks(int value) {
      tailBlocks = value;
      return this;
    }

    public Builder tailBytes(long value) {
      tailBytes = value;
      return this;
    }

    public Builder sharedPages(int value) {
      sharedPages = value;
      return this;
    }

    public Builder sharedPagesBytes(long value) {
      sharedPagesBytes = value;
      return this;
    }

    public Builder shutdownGraceMillis(long value) {
      shutdownGraceMillis = value;
      return this;
    }

    public Builder rejectionsLoggedPerMinute(int value) {
      rejectionsLoggedPerMinute = value;
      return this;
    }

    public Builder rpcThreads(int value) {
      rpcThreads = value;
      return this;
    }

    public Builder watchThreads(int value) {
      watchThreads = value;
      return this;
    }

    public Builder spacesPerServer(int value) {
      spacesPerServer = value;
      return this;
    }

    public Builder feedsPerSpace(int value) {
      feedsPerSpace = value;
      return this;
    }

    public Builder appendGroupBlocks(int value) {
      appendGroupBlocks = value;
      return this;
    }

    public Builder keepaliveMillis(long value) {
      keepaliveMillis = value;
      return this;
    }

    public Builder keepaliveTimeoutMillis(long value) {
      keepaliveTimeoutMillis = value;
      return this;
    }

    public Builder quickCheckMillis(long value) {
      quickCheckMillis = value;
      return this;
    }

    public Builder metricsReadTimeoutMillis(long value) {
      metricsReadTimeoutMillis = value;
      return this;
    }

    public Builder writeProbeMillis(long value) {
      writeProbeMillis = value;
      return this;
    }

    public Builder permitKeepaliveMillis(long value) {
      permitKeepaliveMillis = value;
      return this;
    }

    public Builder httpThreads(int value) {
      httpThreads = value;
      return this;
    }

    public Builder httpIdleTimeoutMillis(long value) {
      httpIdleTimeoutMillis = value;
      return this;
    }

    public Builder httpRefusedBodyBytes(long value) {
      httpRefusedBodyBytes = value;
      return this;
    }

    public Builder principalRequestsPerSecond(long value) {
      principalRequestsPerSecond = value;
      return this;
    }

    public Builder principalAppendBytesPerSecond(long value) {
      principalAppendBytesPerSecond = value;
      return this;
    }

    public Builder principalStreams(int value) {
      principalStreams = value;
      return this;
    }

    public Builder streamsSpace(String value) {
      streamsSpace = value;
      return this;
    }

    public Builder streamsLongPollMillis(long value) {
      streamsLongPollMillis = value;
      return this;
    }

    public Builder retainBlocks(long value) {
      retainBlocks = value;
      return this;
    }

    public Builder retainAgeMillis(long value) {
      retainAgeMillis = value;
      return this;
    }

    public Builder retainBytes(long value) {
      retainBytes = value;
      return this;
    }

    public Builder retentionIntervalMillis(long value) {
      retentionIntervalMillis = value;
      return this;
    }

    /**
     * The settings.
     *
     * @throws InvalidValueException naming the key of a value that cannot work
     */
    public ServerSettings build() {
      return new ServerSettings(blockBytes, blocksPerAppend, queryLimit, feedsPerScope, maxMessageBytes, responseBytes,
          watchesPerServer, watchesPerConnection, watchScopeBytes, watchScopeBytesPerConnection, watchBatchBlocks,
          watchBatchBytes, subscriptionTtlMillis, subscriptionMaxTtlMillis, subscriptionsPerSpace, heartbeatMillis, tailBlocks, tailBytes,
          sharedPages, sharedPagesBytes,
          shutdownGraceMillis, rejectionsLoggedPerMinute, rpcThreads, watchThreads, spacesPerServer, feedsPerSpace,
          appendGroupBlocks, keepaliveMillis, keepaliveTimeoutMillis, quickCheckMillis, metricsReadTimeoutMillis, writeProbeMillis,
          permitKeepaliveMillis, httpThreads, httpIdleTimeoutMillis, httpRefusedBodyBytes,
          principalRequestsPerSecond,
          principalAppendBytesPerSecond, principalStreams, streamsSpace, streamsLongPollMillis, retainBlocks,
          retainAgeMillis, retainBytes, retentionIntervalMillis);
    }
  }
}
