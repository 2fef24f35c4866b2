package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.COMPRESS_MIN_BYTES;
import static dev.feedstore.server.settings.ServerSettings.HTTP_IDLE_TIMEOUT_MS;
import static dev.feedstore.server.settings.ServerSettings.HTTP_THREADS;
import static dev.feedstore.server.settings.ServerSettings.METRICS_READ_TIMEOUT_MS;

import dev.feedstore.server.internal.access.TlsIdentity;
import dev.feedstore.server.internal.core.ServerCore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.CrossOriginHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The server's HTTP side, on Jetty's non-blocking core, with up to two addresses: the API ({@link
 * HttpApi}: pages, Server-Sent Events, appends, the web page; TLS when the server has a
 * certificate; gzip for a client that takes it, {@link HttpCompression}) and the metrics endpoint
 * ({@link MetricsHandler}, plain HTTP). No thread waits on a client: Jetty's {@code http-threads}
 * only move bytes, the store's work runs on the request executor, and an open event stream holds
 * no thread. A connection idle for its timeout is closed, so one that sends half a request holds
 * nothing but itself until then.
 *
 * <p>Thread-safe; {@link #close} stops it.
 */
public final class HttpEdge implements AutoCloseable {
  /** Connections open at once on the metrics address; a scraper needs one, so this leaves room for several. */
  static final int METRICS_CONNECTIONS = 64;
  /** Request headers of the API a page of another origin may send; the protocols add theirs. */
  private static final Set<String> CORS_HEADERS = Set.of("Authorization", "Content-Type", "Last-Event-ID",
      HttpReads.SERVER_TOKEN_HEADER);
  /** Response headers of the API a page of another origin may read; the protocols add theirs. */
  private static final Set<String> CORS_EXPOSED = Set.of("Retry-After", "Content-Type");

  /**
   * What to serve.
   *
   * @param api the API's address, if served
   * @param metrics the metrics endpoint's address, if served
   * @param tls the certificate chain and key of the API (PEM files), if it speaks TLS
   * @param corsOrigins the browser origins that may call the API ({@code https://app.example.com};
   *     {@code *} for any); none by default
   * @param ui the directory served under {@code /ui/}, if any
   */
  public record Options(Optional<InetSocketAddress> api, Optional<InetSocketAddress> metrics,
      Optional<Path[]> tls, Set<String> corsOrigins, Optional<Path> ui) {}

  private final Server server;
  private final Optional<ServerConnector> apiConnector;
  private final Optional<ServerConnector> metricsConnector;
  /** The bound ports, kept after a stop: -1 without the address. */
  private volatile int apiPort = -1;
  private volatile int metricsPort = -1;

  private HttpEdge(Server server, Optional<ServerConnector> apiConnector, Optional<ServerConnector> metricsConnector) {
    this.server = server;
    this.apiConnector = apiConnector;
    this.metricsConnector = metricsConnector;
  }

  /**
   * Binds the addresses of {@code options} and starts serving {@code core}, with {@code protocols}
   * beside the API's own endpoints.
   *
   * @throws IOException if an address cannot be bound
   * @throws IllegalArgumentException if the TLS files cannot be used, naming the file and the fix
   */
  public static HttpEdge start(ServerCore core, Options options, List<HttpProtocol> protocols) throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(core.settings().get(HTTP_THREADS), 2);
    threads.setName("feed-http");
    threads.setDaemon(true);
    Server server = new Server(threads);
    server.setErrorHandler(new HttpErrors());
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    Optional<ServerConnector> api = options.api().map(address -> {
      ServerConnector connector = options.tls().isPresent()
          ? tlsConnector(server, config, options.tls().get())
          : new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
      bind(connector, address, core.settings().get(HTTP_IDLE_TIMEOUT_MS));
      return connector;
    });
    Optional<ServerConnector> metrics = options.metrics().map(address -> {
      ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
      bind(connector, address, core.settings().get(METRICS_READ_TIMEOUT_MS));
      server.addBean(new NetworkConnectionLimit(METRICS_CONNECTIONS, connector));
      return connector;
    });
    Handler apiHandler = HttpCompression.wrap(new HttpApi(core, options.ui().map(HttpFiles::new), protocols),
        core.settings().get(COMPRESS_MIN_BYTES));
    if (!options.corsOrigins().isEmpty()) {
      CrossOriginHandler cors = new CrossOriginHandler();
      cors.setAllowedOriginPatterns(options.corsOrigins().stream()
          .map(origin -> origin.equals("*") ? ".*" : Pattern.quote(origin)).collect(Collectors.toSet()));
      cors.setAllowedMethods(Set.of("GET", "POST", "HEAD", "PUT", "DELETE"));
      cors.setAllowedHeaders(union(CORS_HEADERS, protocols, HttpProtocol::corsRequestHeaders));
      cors.setExposedHeaders(union(CORS_EXPOSED, protocols, HttpProtocol::corsResponseHeaders));
      cors.setPreflightMaxAge(Duration.ofMinutes(10));
      cors.setHandler(apiHandler);
      apiHandler = cors;
    }
    server.setHandler(new ByConnector(metrics, new MetricsHandler(core.metrics()), apiHandler));
    HttpEdge edge = new HttpEdge(server, api, metrics);
    edge.start();
    return edge;
  }

  private static Set<String> union(Set<String> own, List<HttpProtocol> protocols,
      Function<HttpProtocol, Set<String>> theirs) {
    Set<String> all = new HashSet<>(own);
    protocols.forEach(protocol -> all.addAll(theirs.apply(protocol)));
    return all;
  }

  private static ServerConnector tlsConnector(Server server, HttpConfiguration plain, Path[] files) {
    SslContextFactory.Server tls = new SslContextFactory.Server();
    char[] password = "feed-server".toCharArray();
    tls.setKeyStore(TlsIdentity.keyStore(files[0], files[1], password));
    tls.setKeyStorePassword(new String(password));
    tls.setCertAlias(TlsIdentity.ALIAS);
    HttpConfiguration config = new HttpConfiguration(plain);
    SecureRequestCustomizer secure = new SecureRequestCustomizer();
    secure.setSniHostCheck(false); // a certificate for a name, reached by address in tests and on loopback
    config.addCustomizer(secure);
    return new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, "http/1.1"),
        new HttpConnectionFactory(config));
  }

  private static void bind(ServerConnector connector, InetSocketAddress address, long idleTimeoutMillis) {
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(idleTimeoutMillis);
    connector.getServer().addConnector(connector);
  }

  private void start() throws IOException {
    try {
      server.start();
      apiPort = apiConnector.map(ServerConnector::getLocalPort).orElse(-1);
      metricsPort = metricsConnector.map(ServerConnector::getLocalPort).orElse(-1);
    } catch (IOException e) {
      close();
      throw e;
    } catch (Exception e) {
      close();
      throw new IOException("cannot start the HTTP server: " + e.getMessage(), e);
    }
  }

  /** The bound port of the API; -1 without one. */
  public int apiPort() {
    return apiPort;
  }

  /** The bound port of the metrics endpoint; -1 without one. */
  public int metricsPort() {
    return metricsPort;
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      // Stopping releases the ports whatever fails on the way; nothing is left to do.
    }
  }

  /** Sends each request to the handler of the address it came to. */
  private static final class ByConnector extends Handler.Abstract.NonBlocking {
    private final Optional<ServerConnector> metricsConnector;
    private final Handler metrics;
    private final Handler api;

    ByConnector(Optional<ServerConnector> metricsConnector, Handler metrics, Handler api) {
      this.metricsConnector = metricsConnector;
      this.metrics = metrics;
      this.api = api;
      addBean(metrics);
      addBean(api);
    }

    @Override
    public void setServer(Server server) {
      super.setServer(server);
      metrics.setServer(server);
      api.setServer(server);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      boolean toMetrics = metricsConnector.isPresent()
          && request.getConnectionMetaData().getConnector() == metricsConnector.get();
      return (toMetrics ? metrics : api).handle(request, response, callback);
    }
  }
}
