package dev.feedstore.server.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The server's HTTP side, on Jetty's non-blocking core: the metrics endpoint ({@code GET
 * /metrics}) on its own address. No thread waits on a client: Jetty's few threads only move bytes,
 * and a connection that sends half a request holds nothing but itself until its idle timeout.
 *
 * <p>Thread-safe; {@link #close} stops it.
 */
public final class HttpEdge implements AutoCloseable {
  /** Connections open at once on the metrics address; a scraper needs one, so this leaves room for several. */
  static final int METRICS_CONNECTIONS = 64;

  private final Server server;
  private final Optional<ServerConnector> metricsConnector;
  /** The bound port of the metrics connector, kept after a stop: -1 without one. */
  private volatile int metricsPort = -1;

  private HttpEdge(Server server, Optional<ServerConnector> metricsConnector) {
    this.server = server;
    this.metricsConnector = metricsConnector;
  }

  /**
   * Binds and starts serving {@code metrics} on {@code address}.
   *
   * @param readTimeout how long a metrics client may be idle (sending its request or taking its
   *     answer) before its connection is closed
   * @throws IOException if the address cannot be bound
   */
  public static HttpEdge startMetrics(InetSocketAddress address, ServerMetrics metrics, Duration readTimeout)
      throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(8, 2);
    threads.setName("feed-http");
    threads.setDaemon(true);
    Server server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendDateHeader(false);
    ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(config));
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(readTimeout.toMillis());
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(METRICS_CONNECTIONS, connector));
    server.setHandler(new MetricsHandler(metrics));
    HttpEdge edge = new HttpEdge(server, Optional.of(connector));
    edge.start();
    return edge;
  }

  private void start() throws IOException {
    try {
      server.start();
      metricsPort = metricsConnector.map(ServerConnector::getLocalPort).orElse(-1);
    } catch (IOException e) {
      close();
      throw e;
    } catch (Exception e) {
      close();
      throw new IOException("cannot start the HTTP server: " + e.getMessage(), e);
    }
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
}
