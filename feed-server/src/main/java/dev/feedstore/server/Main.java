package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.QUICK_CHECK_MS;
import static dev.feedstore.server.settings.ServerSettings.REJECTIONS_LOGGED_PER_MINUTE;

import dev.feedstore.core.InvalidValueException;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StoreException;
import dev.feedstore.postgres.PostgresSettings;
import dev.feedstore.postgres.PostgresStore;
import dev.feedstore.server.internal.access.TlsIdentity;
import dev.feedstore.server.internal.grpc.TransportLog;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.JwtSettings;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.settings.SettingOptions;
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
 * Every setting of {@link ServerSettings} is a flag of the same name ({@link SettingOptions});
 * {@code --help} lists them with their defaults.
 *
 * <p>SIGTERM and SIGINT shut it down gracefully (health NOT_SERVING, new calls refused, calls in
 * flight finish, Watch streams end with UNAVAILABLE, the database is closed) and the process exits
 * with 0; SIGHUP reloads the access files. The handlers are installed before the server listens, so
 * that none of these signals meets the JVM's default action once a client can reach it. Exit code 1
 * means it could not start (the database, which must take a write, the TLS files or the address),
 * with a line that names the file and the problem; 2 a bad flag.
 */
@Command(name = "feed-server", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    modelTransformer = SettingOptions.class, sortOptions = false, showDefaultValues = true, usageHelpWidth = 100,
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

  @Option(names = "--jwt-jwks-timeout-ms", paramLabel = "MS",
      description = "How long fetching a --jwt-jwks URL may take to connect, and again to read its answer, before the"
          + " token that needed it is refused (default: ${DEFAULT-VALUE}).")
  long jwtJwksTimeoutMs = JwtSettings.DEFAULT_JWKS_TIMEOUT.toMillis();

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

  private final CountDownLatch stop = new CountDownLatch(1);
  private final Object closing = new Object();
  /** Guarded by closing. */
  private FeedServer server;
  /** Guarded by closing. */
  private AuthorityStore<?> store;
  /** A SIGHUP came before the server was started: it reloads the files once started. Guarded by closing. */
  private boolean reloadPending;

  /** Runs the server as the command line says and exits with {@link #run}'s code. */
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
            java.util.Optional.ofNullable(jwtIssuer), java.util.Optional.ofNullable(jwtAudience), jwtGrantsClaim,
            java.time.Duration.ofMillis(jwtJwksTimeoutMs));
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
    TransportLog.install(java.time.Clock.systemUTC(), settings.get(REJECTIONS_LOGGED_PER_MINUTE));
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
          checked = StoreCheck.atStart(file, settings.get(QUICK_CHECK_MS), log);
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

  /** The settings the flags of the parsed command line give: the options {@link SettingOptions} added. */
  ServerSettings settings() {
    return SettingOptions.settings(spec);
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
    sun.misc.SignalHandler before;
    try {
      before = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), signal -> reload(log));
    } catch (IllegalArgumentException | LinkageError e) {
      return; // No SIGHUP on this platform: restart to change the files.
    }
    if (before == sun.misc.SignalHandler.SIG_IGN && (accessTokens != null || jwtJwks != null || jwtHmacSecret != null)) {
      // The JVM keeps an ignored SIGHUP ignored (nohup starts a process so): the handler never runs.
      log.warn("SIGHUP is ignored in this process (it was started so, as nohup does): the access tokens file and"
          + " the JWT keys are not reloaded on SIGHUP: restart the server to change them, or start it without nohup"
          + " (under a service manager, say)");
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
