package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.server.internal.access.Authenticator;
import dev.feedstore.server.internal.streams.EndedStreams;
import dev.feedstore.server.internal.grpc.GrpcEdge;
import dev.feedstore.server.internal.http.HttpEdge;
import dev.feedstore.server.internal.streams.StreamsProtocol;
import dev.feedstore.server.internal.access.JwtAccess;
import dev.feedstore.server.internal.core.ServerCore;
import dev.feedstore.server.internal.monitoring.ServerVersion;
import dev.feedstore.server.settings.AccessTokens;
import dev.feedstore.server.settings.JwtSettings;
import dev.feedstore.server.settings.ServerSettings;
import io.grpc.ServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The position authority as a gRPC server: the {@code feed.v1.FeedSync} service over an {@link
 * AuthorityStore} (a {@code SqliteFeedStore} is one), the standard health service ({@code
 * grpc.health.v1.Health}) and server reflection, so that grpcurl and load balancers work; and, when
 * asked ({@link Builder#http}), the same service over HTTP: every call (Watch as Server-Sent
 * Events), with the same access rules and limits.
 *
 * <pre>{@code
 * try (SqliteFeedStore store = SqliteFeedStore.open(Path.of("feeds.db"));
 *      FeedServer server = FeedServer.newBuilder(store).address("127.0.0.1", 7070).build().start()) {
 *   server.awaitTermination();
 * }
 * }</pre>
 *
 * <p>The server does not own the store: close the server first, then the store. {@link #close}
 * shuts down gracefully: new calls are refused, calls in flight (appends among them) finish within
 * {@code shutdown-grace-ms}, and Watch streams end with {@code UNAVAILABLE} (event streams with an
 * {@code event: error} saying so).
 *
 * <p>Thread-safe.
 */
public final class FeedServer implements AutoCloseable {
  /**
   * The service name under which the health service says whether the server serves reads: SERVING
   * while reads work, though writes may fail (a full disk, a read-only file), when the whole server
   * ({@code ""}) and {@code feed.v1.FeedSync} say NOT_SERVING so that writers are routed away.
   */
  public static final String READS_HEALTH = GrpcEdge.READS_HEALTH;

  private final GrpcEdge grpc;
  private final ServerCore core;
  private final ServerSettings settings;
  private final HttpEdge.Options http;
  private final Authenticator authenticator;

  private final Object lifecycle = new Object();
  /** Guarded by lifecycle; null unless the HTTP API or metrics are served. */
  private HttpEdge edge;
  /** Guarded by lifecycle. */
  private boolean started;
  /** Guarded by lifecycle. */
  private boolean closed;

  private FeedServer(GrpcEdge grpc, ServerCore core, ServerSettings settings, HttpEdge.Options http,
      Authenticator authenticator) {
    this.authenticator = authenticator;
    this.grpc = grpc;
    this.core = core;
    this.settings = settings;
    this.http = http;
  }

  /** The version of this build (from its resources; {@code unknown} when they do not say). */
  public static String version() {
    return ServerVersion.get();
  }

  /** A builder of a server over {@code store}, which the caller keeps owning. */
  public static Builder newBuilder(AuthorityStore<?> store) {
    return new Builder(store);
  }

  /**
   * Checks that the store takes writes (one tiny commit, {@link AuthorityStore#probeWrite}), then binds
   * and starts serving. Blocks until the socket is bound. From then on health ({@code ""} and {@code
   * feed.v1.FeedSync}) says NOT_SERVING while writes or reads fail on the storage (found by the
   * transactions and by a probe every {@code write-probe-ms}) and SERVING again once a probe
   * succeeds; {@link #READS_HEALTH} says whether reads work. A store found damaged stays NOT_SERVING
   * under every name until the process ends. A full disk does not stop the start: the server starts
   * with writes failing and serves reads.
   *
   * @throws IOException if the address cannot be bound
   * @throws dev.feedstore.core.store.StorageFaultException if the store cannot be written for another
   *     reason than a full disk (a read-only file, an I/O error, a damaged file): nothing was bound
   * @throws IllegalStateException if started before or closed
   */
  public FeedServer start() throws IOException {
    synchronized (lifecycle) {
      if (started || closed) {
        throw new IllegalStateException(closed ? "the server is closed" : "the server is started already");
      }
      started = true;
      try {
        core.checkStorage();
        grpc.start();
        if (http.api().isPresent() || http.metrics().isPresent()) {
          edge = HttpEdge.start(core, http, List.of(new StreamsProtocol(core)));
        }
      } catch (IOException | RuntimeException e) {
        closed = true;
        grpc.stopNow();
        core.close();
        throw e;
      }
      core.startTicking();
    }
    return this;
  }

  /** The port the server listens on (the bound one when 0 was asked for); -1 if not a socket. */
  public int port() {
    return grpc.port();
  }

  /** The port of the metrics endpoint (the bound one when 0 was asked for); -1 if it has none. */
  public int metricsPort() {
    synchronized (lifecycle) {
      return edge == null ? -1 : edge.metricsPort();
    }
  }

  /** The port of the HTTP API (the bound one when 0 was asked for); -1 if it has none. */
  public int httpPort() {
    synchronized (lifecycle) {
      return edge == null ? -1 : edge.apiPort();
    }
  }

  /** The addresses the server listens on. */
  public List<? extends SocketAddress> listenAddresses() {
    return grpc.listenAddresses();
  }

  /** The settings in force. */
  public ServerSettings settings() {
    return settings;
  }

  /**
   * Uses {@code tokens} for calls from now on (calls already admitted keep what they were granted):
   * how {@code Main} reloads the tokens file on SIGHUP.
   *
   * @throws IllegalStateException if the server was built without access tokens
   */
  public void reloadAccessTokens(AccessTokens tokens) {
    authenticator.replace(tokens);
  }

  /**
   * Reads the JWT key files ({@code --jwt-jwks} file, {@code --jwt-hmac-secret}) again, if the server
   * checks JWTs: how {@code Main} takes rotated keys on SIGHUP.
   *
   * @throws IllegalArgumentException naming a file that cannot be used; the keys in use stay
   */
  public void reloadJwtKeys() {
    authenticator.reloadJwtKeys();
  }

  /** How many Watch streams are open now. */
  public int openWatches() {
    return core.openWatches();
  }

  /** How many live queries are open now. */
  public int openLiveQueries() {
    return core.liveQueries().openCount();
  }

  /** How many shared states the open live queries use: one per canonical query and space. */
  public int sharedLiveQueries() {
    return core.liveQueries().sharedCount();
  }

  /**
   * Runs the periodic work now, as the ticker does every {@code heartbeat-ms}: heartbeats to idle
   * Watch streams, renewal of their subscriptions (ending those whose subscription expired), and
   * purging of expired subscriptions. For tests and operators' tools; blocks on the store.
   */
  public void tick() {
    core.tick();
  }

  /**
   * Applies retention to every space of the store now, as the server does every {@code
   * retention-interval-ms}. For tests and operators' tools; blocks until done.
   *
   * @return how many blocks it removed
   */
  public long applyRetention() {
    return core.applyRetention();
  }

  /**
   * Shuts down gracefully and waits for it: health turns NOT_SERVING, new calls are refused, Watch
   * streams end with {@code UNAVAILABLE}, calls in flight get {@code shutdown-grace-ms} to finish
   * before they are cancelled. Idempotent. Does not close the store.
   */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
    }
    grpc.refuseNewCalls();
    core.endWatches();
    try {
      grpc.finishCalls();
    } finally {
      core.close();
      synchronized (lifecycle) {
        if (edge != null) {
          edge.close();
        }
      }
    }
  }

  /** Blocks until the server has terminated (after {@link #close}). */
  public void awaitTermination() throws InterruptedException {
    grpc.awaitTermination();
  }

  /**
   * Configures a {@link FeedServer}. Give either an address to listen on (a plain-text HTTP/2
   * socket; the default is 127.0.0.1:7070) or a {@link ServerBuilder} of your own, for example an
   * in-process one in tests. Not thread-safe.
   */
  public static final class Builder {
    private final AuthorityStore<?> store;
    private ServerSettings settings = ServerSettings.DEFAULTS;
    private Clock clock = Clock.systemUTC();
    private InetSocketAddress address = new InetSocketAddress("127.0.0.1", 7070);
    private ServerBuilder<?> serverBuilder;
    private InetSocketAddress metricsAddress;
    private InetSocketAddress httpAddress;
    private java.util.Set<String> corsOrigins = java.util.Set.of();
    private Path ui;
    private AccessTokens accessTokens;
    private JwtSettings jwt;
    private Path tlsCertificateChain;
    private Path tlsPrivateKey;

    private Builder(AuthorityStore<?> store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The server's settings (default {@link ServerSettings#DEFAULTS}). */
    public Builder settings(ServerSettings value) {
      settings = Objects.requireNonNull(value, "settings");
      return this;
    }

    /** The clock for subscription expiry and log rate limits; the system clock by default. */
    public Builder clock(Clock value) {
      clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Listen on {@code host:port} (port 0 picks a free one; see {@link FeedServer#port}). */
    public Builder address(String host, int port) {
      address = new InetSocketAddress(host, port);
      serverBuilder = null;
      return this;
    }

    /**
     * Require an access token on every FeedSync call, allowing what {@code tokens} grants it (the
     * health and reflection services stay open). Every call is allowed unless called.
     */
    public Builder accessTokens(AccessTokens tokens) {
      accessTokens = Objects.requireNonNull(tokens, "tokens");
      return this;
    }

    /**
     * Accept bearer tokens that are JWTs, checked as {@code settings} say, on every FeedSync call
     * and HTTP request (beside the static tokens of {@link #accessTokens}, if also given). {@link
     * #build} reads the key files and throws {@link IllegalArgumentException} naming a file that
     * cannot be used.
     */
    public Builder jwt(JwtSettings settings) {
      jwt = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /**
     * Serve TLS on the socket, with the certificate chain and the unencrypted PKCS#8 private key in
     * these PEM files. Plain text (h2c) unless called; ignored with {@link #serverBuilder}. {@link
     * #build} reads both files and throws {@link IllegalArgumentException}, naming the file and the
     * fix, if either cannot be used or the key is not the first certificate's.
     */
    public Builder tls(Path certificateChain, Path privateKey) {
      tlsCertificateChain = Objects.requireNonNull(certificateChain, "certificateChain");
      tlsPrivateKey = Objects.requireNonNull(privateKey, "privateKey");
      return this;
    }

    /**
     * Also serve {@code GET /metrics} (Prometheus text format) over HTTP on {@code host:port} (port
     * 0 picks a free one; see {@link FeedServer#metricsPort}), a client having {@code
     * metrics-read-timeout-ms} to send its request. Off unless called. The endpoint has no access
     * control: keep {@code host} on loopback or a private network.
     */
    public Builder metricsAddress(String host, int port) {
      metricsAddress = new InetSocketAddress(host, port);
      return this;
    }

    /**
     * Also serve the HTTP API on {@code host:port} (port 0 picks a free one; see {@link
     * FeedServer#httpPort}): every call of the service (Watch as Server-Sent Events) under {@code /v1/},
     * with the same store, limits and access rules as gRPC, and TLS with the files of {@link #tls}.
     * Off unless called.
     */
    public Builder http(String host, int port) {
      httpAddress = new InetSocketAddress(host, port);
      return this;
    }

    /**
     * Browser origins (such as {@code https://app.example.com}, or {@code *} for any) whose pages may
     * call the HTTP API (CORS). None unless called.
     */
    public Builder httpCorsOrigins(java.util.Set<String> origins) {
      corsOrigins = java.util.Set.copyOf(origins);
      return this;
    }

    /** Serve the files of {@code dir} (a web page: {@code index.html} and what it loads) under {@code /ui/} of the HTTP API. */
    public Builder httpUi(Path dir) {
      ui = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /**
     * Serve through {@code builder} instead of a socket of our own. The server adds its services,
     * interceptor, request executor and {@code max-message-bytes} to it; the builder's transport
     * is otherwise the caller's choice.
     */
    public Builder serverBuilder(ServerBuilder<?> builder) {
      serverBuilder = Objects.requireNonNull(builder, "builder");
      return this;
    }

    /** The server, not started yet. */
    public FeedServer build() {
      Optional<Path[]> tls = tlsCertificateChain == null ? Optional.empty()
          : Optional.of(new Path[] {tlsCertificateChain, tlsPrivateKey});
      ServerBuilder<?> builder = serverBuilder != null ? serverBuilder : GrpcEdge.socket(address, settings, tls);
      Authenticator authenticator = new Authenticator(Optional.ofNullable(accessTokens),
          Optional.ofNullable(jwt).map(JwtAccess::new));
      ServerCore core = new ServerCore(store, settings, clock, authenticator,
          new EndedStreams(SpaceId.of(settings.get(STREAMS_SPACE))));
      HttpEdge.Options http = new HttpEdge.Options(Optional.ofNullable(httpAddress), Optional.ofNullable(metricsAddress),
          tls, corsOrigins, Optional.ofNullable(ui));
      return new FeedServer(GrpcEdge.build(builder, core), core, settings, http, authenticator);
    }
  }
}
