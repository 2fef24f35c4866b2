package dev.feedstore.server;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.postgres.PostgresSettings;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.server.internal.TlsIdentity;
import dev.feedstore.server.internal.TransportLog;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.sqlite.SqliteSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The runnable position authority: {@code java -jar feed-server.jar --db feeds.db --port 7070}, or
 * one of several processes over one PostgreSQL database: {@code --postgres
 * jdbc:postgresql://HOST/DB} (the user in the URL or {@code PGUSER}, the password in {@code
 * PGPASSWORD} or {@code --postgres-password-file}, never on the command line).
 * Every setting of {@link ServerSettings} is a flag of the same name; {@code --help} lists them with
 * their defaults.
 *
 * <p>SIGTERM and SIGINT shut it down gracefully (health NOT_SERVING, new calls refused, calls in
 * flight finish, Watch streams end with UNAVAILABLE, the database is closed) and the process exits
 * with 0; SIGHUP reloads the access files. The handlers are installed before the server listens, so
 * that none of these signals meets the JVM's default action once a client can reach it. Exit code 1
 * means it could not start (the database, which must take a write, the TLS files or the address),
 * with a line that names the file and the problem; 2 a bad flag.
 */
@Command(name = "feed-server", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    sortOptions = false, showDefaultValues = true, usageHelpWidth = 100,
    description = "The feed store's position authority: gRPC service feed.v1.FeedSync (plus health and"
        + " reflection) over an embedded SQLite database, or over PostgreSQL shared with other processes.")
public final class Main implements Callable<Integer> {
  @Option(names = "--db", paramLabel = "FILE", description = "SQLite database file; created if missing.")
  Path db = Path.of("feeds.db");

  @Option(names = "--postgres", paramLabel = "JDBC-URL",
      description = "Serve from this PostgreSQL database instead of --db, shared with other server processes:"
          + " jdbc:postgresql://HOST[:PORT]/DATABASE[?user=NAME] (or PGUSER). The password comes from PGPASSWORD or"
          + " --postgres-password-file, never from the command line; a server that trusts the host needs none.")
  String postgres;

  @Option(names = "--postgres-password-file", paramLabel = "FILE",
      description = "A file holding the PostgreSQL password (one line); PGPASSWORD otherwise.")
  Path postgresPasswordFile;

  @Option(names = "--postgres-pool-size", paramLabel = "N",
      description = "Most connections to PostgreSQL this process holds (" + PostgresSettings.MIN_POOL_SIZE + " to "
          + PostgresSettings.MAX_POOL_SIZE + "); one per store transaction running at once.")
  int postgresPoolSize = PostgresSettings.DEFAULT_POOL_SIZE;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--host", description = "Address to listen on (0.0.0.0 for every interface).")
  String host = "127.0.0.1";

  @Option(names = "--port", description = "Port to listen on (0 picks a free one and logs it).")
  int port = 7070;

  @Option(names = "--access-tokens", paramLabel = "FILE",
      description = "Require a bearer token on every call: one 'SHA256-HEX read|write SPACES|*' a line. Open without.")
  Path accessTokens;

  @Option(names = "--jwt-jwks", paramLabel = "FILE|URL",
      description = "Accept bearer tokens that are JWTs signed by a key of this JWK set (a file, or an http(s) URL"
          + " fetched and cached); see the deployment guide for the grants claim.")
  String jwtJwks;

  @Option(names = "--jwt-hmac-secret", paramLabel = "FILE",
      description = "Accept JWTs signed with HS256/384/512 and the secret in this file (32 bytes or more).")
  Path jwtHmacSecret;

  @Option(names = "--jwt-issuer", description = "The iss a JWT must have; any unless given.")
  String jwtIssuer;

  @Option(names = "--jwt-audience", description = "A value the aud of a JWT must hold; any unless given.")
  String jwtAudience;

  @Option(names = "--jwt-grants-claim", paramLabel = "NAME",
      description = "The claim of a JWT that holds its grants: {\"read\": [SPACES], \"write\": [SPACES]}, * for every"
          + " space.")
  String jwtGrantsClaim = JwtSettings.DEFAULT_GRANTS_CLAIM;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "Serve TLS with this certificate chain (PEM); needs --tls-key. Plain text (h2c) without.")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE",
      description = "The private key of --tls-cert (PEM, unencrypted PKCS#8).")
  Path tlsKey;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "Serve GET /metrics (Prometheus text) over HTTP on this port of --metrics-host; off unless given.")
  Integer metricsPort;

  @Option(names = "--metrics-host",
      description = "Address of the metrics endpoint, apart from --host so that serving gRPC on every interface does"
          + " not expose it.")
  String metricsHost = "127.0.0.1";

  @Option(names = "--http-port", paramLabel = "PORT",
      description = "Also serve the HTTP API (pages, Server-Sent Events, appends under /v1/) on this port of"
          + " --http-host, TLS with --tls-cert; off unless given.")
  Integer httpPort;

  @Option(names = "--http-host", description = "Address of the HTTP API.")
  String httpHost = "127.0.0.1";

  @Option(names = "--http-cors-origin", paramLabel = "ORIGIN", split = ",",
      description = "A browser origin whose pages may call the HTTP API (https://app.example.com, or * for any);"
          + " repeat or separate with commas. None by default.")
  java.util.List<String> httpCorsOrigins = new java.util.ArrayList<>();

  @Option(names = "--http-ui", paramLabel = "DIR",
      description = "Serve the files of DIR (a web page such as examples/web) under /ui/ of the HTTP API.")
  Path httpUi;

  @Option(names = "--sync", paramLabel = "full|normal",
      description = "full: a commit survives power loss; normal: faster, survives a crash of the process only.")
  SqliteSettings.Synchronous sync = SqliteSettings.Synchronous.FULL;

  @Option(names = "--cached-feeds", paramLabel = "N",
      description = "Most feed rows the store keeps in memory (about 250 bytes each); others are read from the file"
          + " when used. At least " + SqliteSettings.MIN_CACHED_FEEDS + ".")
  int cachedFeeds = SqliteSettings.DEFAULT_CACHED_FEEDS;

  @Option(names = "--" + ServerSettings.Key.BLOCK_BYTES, paramLabel = "BYTES",
      description = "Largest data of one block.")
  int blockBytes = ServerSettings.DEFAULT_BLOCK_BYTES;

  @Option(names = "--" + ServerSettings.Key.BLOCKS_PER_APPEND, paramLabel = "N",
      description = "Most blocks in one Append.")
  int blocksPerAppend = ServerSettings.DEFAULT_BLOCKS_PER_APPEND;

  @Option(names = "--" + ServerSettings.Key.QUERY_LIMIT, paramLabel = "N",
      description = "Largest limit a Query may ask for (0 in a request means 100).")
  int queryLimit = ServerSettings.DEFAULT_QUERY_LIMIT;

  @Option(names = "--" + ServerSettings.Key.FEEDS_PER_SCOPE, paramLabel = "N",
      description = "Most feed ids and namespaces one scope names (Query, Watch, Subscribe); at most "
          + ServerSettings.MAX_FEEDS_PER_SCOPE + ".")
  int feedsPerScope = ServerSettings.DEFAULT_FEEDS_PER_SCOPE;

  @Option(names = "--" + ServerSettings.Key.MAX_MESSAGE_BYTES, paramLabel = "BYTES",
      description = "Largest request message; must exceed --block-bytes.")
  int maxMessageBytes = ServerSettings.DEFAULT_MAX_MESSAGE_BYTES;

  @Option(names = "--" + ServerSettings.Key.RESPONSE_BYTES, paramLabel = "BYTES",
      description = "Most block data in one Query response or Watch batch (one block is always sent).")
  int responseBytes = ServerSettings.DEFAULT_RESPONSE_BYTES;

  @Option(names = "--" + ServerSettings.Key.WATCHES_PER_SERVER, paramLabel = "N",
      description = "Most open Watch streams on the server.")
  int watchesPerServer = ServerSettings.DEFAULT_WATCHES_PER_SERVER;

  @Option(names = "--" + ServerSettings.Key.WATCHES_PER_CONNECTION, paramLabel = "N",
      description = "Most open Watch streams on one client connection.")
  int watchesPerConnection = ServerSettings.DEFAULT_WATCHES_PER_CONNECTION;

  @Option(names = "--" + ServerSettings.Key.WATCH_SCOPE_BYTES, paramLabel = "BYTES",
      description = "Most heap the scopes of all open Watch streams hold (16 bytes a feed id); a stream"
          + " over it is refused.")
  long watchScopeBytes = ServerSettings.DEFAULT_WATCH_SCOPE_BYTES;

  @Option(names = "--" + ServerSettings.Key.WATCH_SCOPE_BYTES_PER_CONNECTION, paramLabel = "BYTES",
      description = "Most heap the scopes of the Watch streams of one client connection hold.")
  long watchScopeBytesPerConnection = ServerSettings.DEFAULT_WATCH_SCOPE_BYTES_PER_CONNECTION;

  @Option(names = "--" + ServerSettings.Key.WATCH_BATCH_BLOCKS, paramLabel = "N",
      description = "Most blocks in one Watch batch (at most --query-limit).")
  int watchBatchBlocks = ServerSettings.DEFAULT_WATCH_BATCH_BLOCKS;

  @Option(names = "--" + ServerSettings.Key.WATCH_BATCH_BYTES, paramLabel = "BYTES",
      description = "Block data in one Watch batch (one block always goes); bounds what a stalled stream holds off the heap.")
  int watchBatchBytes = ServerSettings.DEFAULT_WATCH_BATCH_BYTES;

  @Option(names = "--" + ServerSettings.Key.SUBSCRIPTION_TTL_MS, paramLabel = "MS",
      description = "TTL of a subscription that asks for none.")
  long subscriptionTtlMillis = ServerSettings.DEFAULT_SUBSCRIPTION_TTL_MS;

  @Option(names = "--" + ServerSettings.Key.SUBSCRIPTION_MAX_TTL_MS, paramLabel = "MS",
      description = "Longest TTL a subscription may ask for.")
  long subscriptionMaxTtlMillis = ServerSettings.DEFAULT_SUBSCRIPTION_MAX_TTL_MS;

  @Option(names = "--" + ServerSettings.Key.SUBSCRIPTIONS_PER_SPACE, paramLabel = "N",
      description = "Most unexpired subscriptions one space may have (counted in the store).")
  int subscriptionsPerSpace = ServerSettings.DEFAULT_SUBSCRIPTIONS_PER_SPACE;

  @Option(names = "--" + ServerSettings.Key.HEARTBEAT_MS, paramLabel = "MS",
      description = "Heartbeat interval of idle Watch streams; also how often their subscriptions are"
          + " renewed and expired subscriptions purged.")
  long heartbeatMillis = ServerSettings.DEFAULT_HEARTBEAT_MS;

  @Option(names = "--" + ServerSettings.Key.SPACES_PER_SERVER, paramLabel = "N",
      description = "Most spaces the server serves from its file; an Append creating one more is refused.")
  int spacesPerServer = ServerSettings.DEFAULT_SPACES_PER_SERVER;

  @Option(names = "--" + ServerSettings.Key.FEEDS_PER_SPACE, paramLabel = "N",
      description = "Most feeds one space may have; an Append creating one more is refused.")
  int feedsPerSpace = ServerSettings.DEFAULT_FEEDS_PER_SPACE;

  @Option(names = "--" + ServerSettings.Key.APPEND_GROUP_BLOCKS, paramLabel = "N",
      description = "Most blocks of appends waiting for a commit that are committed together in one"
          + " transaction; 1 commits every append alone.")
  int appendGroupBlocks = ServerSettings.DEFAULT_APPEND_GROUP_BLOCKS;

  @Option(names = "--" + ServerSettings.Key.KEEPALIVE_MS, paramLabel = "MS",
      description = "How long a client connection may be silent before the server pings it.")
  long keepaliveMillis = ServerSettings.DEFAULT_KEEPALIVE_MS;

  @Option(names = "--" + ServerSettings.Key.KEEPALIVE_TIMEOUT_MS, paramLabel = "MS",
      description = "How long the server waits for a ping's answer before closing the connection and its"
          + " Watch streams.")
  long keepaliveTimeoutMillis = ServerSettings.DEFAULT_KEEPALIVE_TIMEOUT_MS;

  @Option(names = "--" + ServerSettings.Key.WRITE_PROBE_MS, paramLabel = "MS",
      description = "How often a tiny write checks that the database takes writes; health is NOT_SERVING from a"
          + " failed write until one succeeds.")
  long writeProbeMillis = ServerSettings.DEFAULT_WRITE_PROBE_MS;

  @Option(names = "--" + ServerSettings.Key.PERMIT_KEEPALIVE_MS, paramLabel = "MS",
      description = "Shortest interval at which a client may send keepalive pings (replicas ping to notice"
          + " a dead link); a client that pings more often is disconnected.")
  long permitKeepaliveMillis = ServerSettings.DEFAULT_PERMIT_KEEPALIVE_MS;

  @Option(names = "--" + ServerSettings.Key.TAIL_BLOCKS, paramLabel = "N",
      description = "Recently committed blocks kept in memory per watched space, shared by its watchers.")
  int tailBlocks = ServerSettings.DEFAULT_TAIL_BLOCKS;

  @Option(names = "--" + ServerSettings.Key.TAIL_BYTES, paramLabel = "BYTES",
      description = "Most block data kept in memory per watched space.")
  long tailBytes = ServerSettings.DEFAULT_TAIL_BYTES;

  @Option(names = "--" + ServerSettings.Key.SHARED_PAGES, paramLabel = "N",
      description = "Pages read from storage kept per watched space for the streams behind its recent blocks,"
          + " each read once and shared (at most one Watch batch each, only after streams fell behind).")
  int sharedPages = ServerSettings.DEFAULT_SHARED_PAGES;

  @Option(names = "--" + ServerSettings.Key.SHARED_PAGES_BYTES, paramLabel = "BYTES",
      description = "Most memory the pages kept for streams behind may hold in all watched spaces together"
          + " (a page counts twice its blocks' data); beyond it the oldest are dropped. 0 keeps none.")
  long sharedPagesBytes = ServerSettings.DEFAULT_SHARED_PAGES_BYTES;

  @Option(names = "--" + ServerSettings.Key.SHUTDOWN_GRACE_MS, paramLabel = "MS",
      description = "How long a shutdown lets calls in flight finish before cancelling them.")
  long shutdownGraceMillis = ServerSettings.DEFAULT_SHUTDOWN_GRACE_MS;

  @Option(names = "--" + ServerSettings.Key.REJECTIONS_LOGGED_PER_MINUTE, paramLabel = "N",
      description = "Rejected requests logged per minute; the rest are counted as suppressed.")
  int rejectionsLoggedPerMinute = ServerSettings.DEFAULT_REJECTIONS_LOGGED_PER_MINUTE;

  @Option(names = "--" + ServerSettings.Key.RPC_THREADS, paramLabel = "N",
      description = "Threads that run request handlers.")
  int rpcThreads = ServerSettings.DEFAULT_RPC_THREADS;

  @Option(names = "--" + ServerSettings.Key.WATCH_THREADS, paramLabel = "N",
      description = "Threads that feed Watch streams.")
  int watchThreads = ServerSettings.DEFAULT_WATCH_THREADS;

  @Option(names = "--" + ServerSettings.Key.QUICK_CHECK_MS, paramLabel = "MS",
      description = "How long SQLite's quick_check may read the database at start (a damaged file is refused;"
          + " one not checked whole in time starts with a warning); 0 skips it.")
  long quickCheckMillis = ServerSettings.DEFAULT_QUICK_CHECK_MS;

  @Option(names = "--" + ServerSettings.Key.METRICS_READ_TIMEOUT_MS, paramLabel = "MS",
      description = "How long a metrics client may take to send its request before its connection is closed.")
  long metricsReadTimeoutMillis = ServerSettings.DEFAULT_METRICS_READ_TIMEOUT_MS;

  @Option(names = "--" + ServerSettings.Key.HTTP_THREADS, paramLabel = "N",
      description = "Threads of the HTTP side (API and metrics); they only move bytes, never wait for a client.")
  int httpThreads = ServerSettings.DEFAULT_HTTP_THREADS;

  @Option(names = "--" + ServerSettings.Key.HTTP_IDLE_TIMEOUT_MS, paramLabel = "MS",
      description = "How long an HTTP connection may be idle before it is closed (an event stream: a heartbeat"
          + " interval more).")
  long httpIdleTimeoutMillis = ServerSettings.DEFAULT_HTTP_IDLE_TIMEOUT_MS;

  @Option(names = "--" + ServerSettings.Key.HTTP_REFUSED_BODY_BYTES, paramLabel = "BYTES",
      description = "How much of a refused HTTP request's body is read and discarded before the refusal is"
          + " written, so that a client still sending it reads the refusal (0 reads none).")
  long httpRefusedBodyBytes = ServerSettings.DEFAULT_HTTP_REFUSED_BODY_BYTES;

  @Option(names = "--" + ServerSettings.Key.PRINCIPAL_REQUESTS_PER_SECOND, paramLabel = "N",
      description = "Requests one principal (JWT subject, token, or client host without access control) may make per"
          + " second, gRPC and HTTP together; more are refused with when to retry.")
  long principalRequestsPerSecond = ServerSettings.DEFAULT_PRINCIPAL_REQUESTS_PER_SECOND;

  @Option(names = "--" + ServerSettings.Key.PRINCIPAL_APPEND_BYTES_PER_SECOND, paramLabel = "BYTES",
      description = "Block data one principal may append per second.")
  long principalAppendBytesPerSecond = ServerSettings.DEFAULT_PRINCIPAL_APPEND_BYTES_PER_SECOND;

  @Option(names = "--" + ServerSettings.Key.PRINCIPAL_STREAMS, paramLabel = "N",
      description = "Live streams (Watch and Server-Sent Events) one principal may hold open.")
  int principalStreams = ServerSettings.DEFAULT_PRINCIPAL_STREAMS;

  @Option(names = "--" + ServerSettings.Key.STREAMS_SPACE, paramLabel = "SPACE",
      description = "The space whose feeds are the Durable Streams under /v1/stream/ of the HTTP API; a replica"
          + " that replicates it holds every stream.")
  String streamsSpace = ServerSettings.DEFAULT_STREAMS_SPACE;

  @Option(names = "--" + ServerSettings.Key.STREAMS_LONG_POLL_MS, paramLabel = "MS",
      description = "How long a Durable Streams long-poll read waits for new data before it answers 204.")
  long streamsLongPollMillis = ServerSettings.DEFAULT_STREAMS_LONG_POLL_MS;

  @Option(names = "--" + ServerSettings.Key.RETAIN_BLOCKS, paramLabel = "N",
      description = "Most blocks a space keeps; older ones are compacted away. 0 keeps all. A space's own"
          + " retention (SetRetention) replaces the retain settings for it.")
  long retainBlocks = ServerSettings.DEFAULT_RETAIN_BLOCKS;

  @Option(names = "--" + ServerSettings.Key.RETAIN_AGE_MS, paramLabel = "MS",
      description = "Oldest block a space keeps, by the time the server received it. 0 keeps all.")
  long retainAgeMillis = ServerSettings.DEFAULT_RETAIN_AGE_MS;

  @Option(names = "--" + ServerSettings.Key.RETAIN_BYTES, paramLabel = "BYTES",
      description = "Most bytes of block data a space keeps. 0 keeps all.")
  long retainBytes = ServerSettings.DEFAULT_RETAIN_BYTES;

  @Option(names = "--" + ServerSettings.Key.RETENTION_INTERVAL_MS, paramLabel = "MS",
      description = "How often retention is applied to every space.")
  long retentionIntervalMillis = ServerSettings.DEFAULT_RETENTION_INTERVAL_MS;

  private final CountDownLatch stop = new CountDownLatch(1);
  private final Object closing = new Object();
  /** Guarded by closing. */
  private FeedServer server;
  /** Guarded by closing. */
  private AuthorityStore<?> store;
  /** A SIGHUP came before the server was started: it reloads the files once started. Guarded by closing. */
  private boolean reloadPending;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (blocks while the server runs). */
  public static int run(String... args) {
    defaultProperty("org.slf4j.simpleLogger.showDateTime", "true");
    defaultProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
    defaultProperty("org.slf4j.simpleLogger.showThreadName", "false");
    defaultProperty("org.slf4j.simpleLogger.showShortLogName", "true");
    defaultProperty("org.slf4j.simpleLogger.log.org.eclipse.jetty", "warn");
    defaultProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
  }

  @Override
  public Integer call() throws InterruptedException {
    Logger log = LoggerFactory.getLogger(Main.class);
    ServerSettings settings;
    SqliteSettings storeSettings;
    PostgresSettings postgresSettings = null;
    try {
      settings = settings();
      storeSettings = storeSettings();
      if (postgres != null) {
        postgresSettings = postgresSettings(System.getenv());
      }
    } catch (InvalidValueException e) {
      System.err.println("feed-server: --" + e.getMessage());
      return 2;
    } catch (IllegalArgumentException e) {
      System.err.println("feed-server: " + e.getMessage());
      return 2;
    }
    AccessTokens tokens = null;
    if (accessTokens != null) {
      try {
        tokens = AccessTokens.read(accessTokens);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        System.err.println("feed-server: --access-tokens: " + e.getMessage());
        return 2;
      }
      AccessTokens.permissionWarning(accessTokens).ifPresent(log::warn);
    }
    JwtSettings jwt = null;
    if (jwtJwks != null || jwtHmacSecret != null) {
      try {
        jwt = new JwtSettings(java.util.Optional.ofNullable(jwtJwks), java.util.Optional.ofNullable(jwtHmacSecret),
            java.util.Optional.ofNullable(jwtIssuer), java.util.Optional.ofNullable(jwtAudience), jwtGrantsClaim);
      } catch (IllegalArgumentException e) {
        System.err.println("feed-server: " + e.getMessage());
        return 2;
      }
    } else if (jwtIssuer != null || jwtAudience != null) {
      System.err.println("feed-server: --jwt-issuer and --jwt-audience need --jwt-jwks or --jwt-hmac-secret");
      return 2;
    }
    if (httpPort == null && (httpUi != null || !httpCorsOrigins.isEmpty())) {
      System.err.println("feed-server: " + (httpUi != null ? "--http-ui" : "--http-cors-origin")
          + " needs --http-port (the HTTP API is off without it)");
      return 2;
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      System.err.println("feed-server: --tls-cert and --tls-key go together; got only "
          + (tlsCert != null ? "--tls-cert" : "--tls-key"));
      return 2;
    }
    // Every handler is in place before the server can answer: the JVM's own action for SIGHUP is to exit.
    TransportLog.install(java.time.Clock.systemUTC(), settings.rejectionsLoggedPerMinute());
    handleStopSignals();
    handleReloadSignal(log);
    Runtime.getRuntime().addShutdownHook(new Thread(this::shutDown, "feed-shutdown"));
    String checked;
    String database;
    try {
      // Files first, before the database: a wrong key is found in a moment, a check of the database can take seconds.
      if (tlsCert != null) {
        TlsIdentity.check(tlsCert, tlsKey);
      }
      synchronized (closing) {
        if (postgresSettings != null) {
          PostgresStore shared = PostgresStore.open(postgresSettings);
          store = shared;
          checked = "schema version " + (shared.previousVersion() == 0 ? "created" : "ok") + ", pool "
              + postgresSettings.poolSize();
          database = "PostgreSQL " + shared.database();
        } else {
          SqliteFeedStore file = SqliteFeedStore.open(db, storeSettings);
          store = file;
          checked = StoreCheck.atStart(file, settings.quickCheckMillis(), log);
          database = "database " + file.file() + " (sync " + sync.name().toLowerCase(java.util.Locale.ROOT);
        }
        FeedServer.Builder builder = FeedServer.newBuilder(store).settings(settings).address(host, port);
        if (metricsPort != null) {
          builder.metricsAddress(metricsHost, metricsPort);
        }
        if (tlsCert != null) {
          builder.tls(tlsCert, tlsKey);
        }
        if (httpPort != null) {
          builder.http(httpHost, httpPort).httpCorsOrigins(java.util.Set.copyOf(httpCorsOrigins));
          if (httpUi != null) {
            builder.httpUi(httpUi);
          }
        }
        if (tokens != null) {
          builder.accessTokens(tokens);
        }
        if (jwt != null) {
          builder.jwt(jwt);
        }
        server = builder.build().start();
        if (reloadPending) {
          reloadFiles(log);
        }
      }
    } catch (StoreException | IllegalArgumentException e) {
      // The operator's files (the database, the TLS files) or values: the message names the file, the problem and the fix.
      log.error("cannot start: {}", e.getMessage());
      shutDown();
      return 1;
    } catch (IOException | RuntimeException e) {
      log.error("cannot start: {}", e.getMessage(), e);
      shutDown();
      return 1;
    }
    log.info("feed-server {} listening on {}:{} ({}), {}{}{}){}", version(), host, server.port(),
        tlsCert != null ? "TLS" : "plain text", database, postgresSettings != null ? " (" : ", ", checked,
        (server.httpPort() < 0 ? "" : ", HTTP API on " + (tlsCert != null ? "https" : "http") + "://" + httpHost + ":"
            + server.httpPort() + "/v1/" + (httpUi == null ? "" : " and the web page on /ui/"))
            + (server.metricsPort() < 0 ? "" : ", metrics on http://" + metricsHost + ":" + server.metricsPort()
                + "/metrics"));
    stop.await();
    log.info("stopping: refusing new calls, finishing calls in flight, ending Watch streams");
    shutDown();
    log.info("stopped; database closed");
    return 0;
  }

  ServerSettings settings() {
    return ServerSettings.newBuilder()
        .blockBytes(blockBytes)
        .blocksPerAppend(blocksPerAppend)
        .queryLimit(queryLimit)
        .feedsPerScope(feedsPerScope)
        .maxMessageBytes(maxMessageBytes)
        .responseBytes(responseBytes)
        .watchesPerServer(watchesPerServer)
        .watchesPerConnection(watchesPerConnection)
        .watchScopeBytes(watchScopeBytes)
        .watchScopeBytesPerConnection(watchScopeBytesPerConnection)
        .watchBatchBlocks(watchBatchBlocks)
        .watchBatchBytes(watchBatchBytes)
        .subscriptionTtlMillis(subscriptionTtlMillis)
        .subscriptionMaxTtlMillis(subscriptionMaxTtlMillis)
        .subscriptionsPerSpace(subscriptionsPerSpace)
        .heartbeatMillis(heartbeatMillis)
        .tailBlocks(tailBlocks)
        .tailBytes(tailBytes)
        .sharedPages(sharedPages)
        .sharedPagesBytes(sharedPagesBytes)
        .shutdownGraceMillis(shutdownGraceMillis)
        .rejectionsLoggedPerMinute(rejectionsLoggedPerMinute)
        .rpcThreads(rpcThreads)
        .watchThreads(watchThreads)
        .spacesPerServer(spacesPerServer)
        .feedsPerSpace(feedsPerSpace)
        .appendGroupBlocks(appendGroupBlocks)
        .keepaliveMillis(keepaliveMillis)
        .keepaliveTimeoutMillis(keepaliveTimeoutMillis)
        .quickCheckMillis(quickCheckMillis)
        .metricsReadTimeoutMillis(metricsReadTimeoutMillis)
        .writeProbeMillis(writeProbeMillis)
        .permitKeepaliveMillis(permitKeepaliveMillis)
        .httpThreads(httpThreads)
        .httpIdleTimeoutMillis(httpIdleTimeoutMillis)
        .httpRefusedBodyBytes(httpRefusedBodyBytes)
        .principalRequestsPerSecond(principalRequestsPerSecond)
        .principalAppendBytesPerSecond(principalAppendBytesPerSecond)
        .principalStreams(principalStreams)
        .streamsSpace(streamsSpace)
        .streamsLongPollMillis(streamsLongPollMillis)
        .retainBlocks(retainBlocks)
        .retainAgeMillis(retainAgeMillis)
        .retainBytes(retainBytes)
        .retentionIntervalMillis(retentionIntervalMillis)
        .build();
  }

  /**
   * The settings of the PostgreSQL store: {@code --postgres}, {@code --postgres-pool-size}, the user
   * from {@code PGUSER} unless the URL names one, and the password from {@code
   * --postgres-password-file} or else {@code PGPASSWORD}.
   *
   * @throws IllegalArgumentException if {@code --db} is given too, or the password file cannot be read
   * @throws InvalidValueException if a value breaks its rule (the message names the flag)
   */
  PostgresSettings postgresSettings(java.util.Map<String, String> environment) {
    if (spec != null && spec.commandLine().getParseResult().hasMatchedOption("--db")) {
      throw new IllegalArgumentException("--db and --postgres name two stores; give one (--db for an embedded SQLite"
          + " file, --postgres for a database shared by several processes)");
    }
    PostgresSettings settings = PostgresSettings.of(postgres).withPoolSize(postgresPoolSize);
    if (!postgres.contains("user=") && environment.containsKey("PGUSER")) {
      settings = settings.withUser(java.util.Optional.of(environment.get("PGUSER")));
    }
    if (postgresPasswordFile != null) {
      try {
        String password = java.nio.file.Files.readString(postgresPasswordFile).strip();
        return settings.withPassword(java.util.Optional.of(password));
      } catch (IOException e) {
        throw new IllegalArgumentException("--postgres-password-file " + postgresPasswordFile + " cannot be read ("
            + e.getMessage() + "): give a file this user may read, holding the password on one line");
      }
    }
    return settings.withPassword(java.util.Optional.ofNullable(environment.get("PGPASSWORD")));
  }

  /** The settings of the SQLite store: {@code --sync} and {@code --cached-feeds}. */
  SqliteSettings storeSettings() {
    try {
      return SqliteSettings.DEFAULTS.withSynchronous(sync).withCachedFeeds(cachedFeeds);
    } catch (InvalidValueException e) {
      throw e.withField("cached-feeds");
    }
  }

  /**
   * SIGTERM and SIGINT wake the main thread, which shuts down and exits with 0. Without this the
   * JVM would run the shutdown hook and exit with 143, which service managers report as a failure.
   */
  @SuppressWarnings("restriction")
  private void handleStopSignals() {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> stop.countDown());
      } catch (IllegalArgumentException | LinkageError e) {
        // No such signal on this platform: the shutdown hook still closes everything.
      }
    }
  }

  /**
   * SIGHUP reads the access tokens file and the JWT key files again; calls from then on use them,
   * streams already open keep what they were granted. A file that does not parse is logged and the
   * previous one stays in use. One that comes while the server starts is answered once it started.
   */
  @SuppressWarnings("restriction")
  private void handleReloadSignal(Logger log) {
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> reload(log));
    } catch (IllegalArgumentException | LinkageError e) {
      // No SIGHUP on this platform: restart to change the files.
    }
  }

  private void reload(Logger log) {
    synchronized (closing) {
      if (server == null) {
        // Not started yet (the files may have been read before the signal), or shut down.
        reloadPending = true;
        return;
      }
      reloadFiles(log);
    }
  }

  /** Reads the access tokens file and the JWT key files again into the running server. Holds closing. */
  private void reloadFiles(Logger log) {
    reloadPending = false;
    if (accessTokens != null) {
      try {
        server.reloadAccessTokens(AccessTokens.read(accessTokens));
        AccessTokens.permissionWarning(accessTokens).ifPresent(log::warn);
        log.info("SIGHUP: reloaded the access tokens file {}", accessTokens);
      } catch (IllegalArgumentException | UncheckedIOException e) {
        log.error("SIGHUP: kept the access tokens in use: {}", e.getMessage());
      }
    }
    if (jwtJwks != null || jwtHmacSecret != null) {
      try {
        server.reloadJwtKeys();
        log.info("SIGHUP: reloaded the JWT keys");
      } catch (IllegalArgumentException e) {
        log.error("SIGHUP: kept the JWT keys in use: {}", e.getMessage());
      }
    }
  }

  /** Closes the server, then the store; idempotent, and callers wait for whoever runs it first. */
  private void shutDown() {
    synchronized (closing) {
      if (server != null) {
        server.close();
        server = null;
      }
      if (store != null) {
        store.close();
        store = null;
      }
    }
  }

  /** The version of this build, from the jar's resources. */
  static String version() {
    return FeedServer.version();
  }

  /** Tells picocli the version. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"feed-server " + version()};
    }
  }

  private static void defaultProperty(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
