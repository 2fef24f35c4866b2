package dev.feedstore.server.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP endpoint serving {@code GET /metrics} in the Prometheus text format, on the JDK's own
 * HTTP server with one thread. Everything else gets 404 (or 405 for another method on
 * {@code /metrics}). Thread-safe; {@link #close} stops it.
 */
public final class MetricsEndpoint implements AutoCloseable {
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(new NamedThreads("feed-metrics"));

  private MetricsEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Binds {@code address} and starts serving {@code metrics}. */
  public static MetricsEndpoint start(InetSocketAddress address, Metrics metrics) throws IOException {
    HttpServer server = HttpServer.create(address, 16);
    MetricsEndpoint endpoint = new MetricsEndpoint(server);
    server.createContext("/", exchange -> endpoint.answer(exchange, metrics));
    server.setExecutor(endpoint.executor);
    server.start();
    return endpoint;
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  private void answer(HttpExchange exchange, Metrics metrics) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals("/metrics")) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] body = metrics.render().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      if (exchange.getRequestMethod().equals("HEAD")) {
        exchange.sendResponseHeaders(200, -1);
        return;
      }
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
