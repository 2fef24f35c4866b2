package dev.feedstore.server.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP endpoint serving {@code GET /metrics} in the Prometheus text format, on one thread with
 * non-blocking sockets. Everything else gets 404 (or 405 for another method on {@code /metrics}).
 *
 * <p>A client has {@code readTimeout} to send its request, and as long again to take its answer;
 * then its connection is closed. No client waits for another: a connection that sends half a
 * request holds only itself, and at most {@value #MAX_CONNECTIONS} connections are open, the
 * oldest closed when another arrives, so a scraper always gets in. Thread-safe; {@link #close}
 * stops it.
 */
public final class MetricsEndpoint implements AutoCloseable {
  /** Connections open at once; a scraper needs one, so this leaves room for several. */
  static final int MAX_CONNECTIONS = 64;
  private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);

  private final ServerSocketChannel listener;
  private final Selector selector;
  private final Metrics metrics;
  private final long timeoutNanos;
  /** Only the endpoint's thread touches it; in the order the connections were accepted. */
  private final Map<SocketChannel, MetricsConnection> connections = new LinkedHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  private MetricsEndpoint(ServerSocketChannel listener, Selector selector, Metrics metrics, Duration readTimeout) {
    this.listener = listener;
    this.selector = selector;
    this.metrics = metrics;
    this.timeoutNanos = readTimeout.toNanos();
    this.thread = new NamedThreads("feed-metrics").newThread(this::serve);
  }

  /**
   * Binds {@code address} and starts serving {@code metrics}.
   *
   * @param readTimeout how long a client may take to send its request (and then to take its answer)
   * @throws IOException if the address cannot be bound
   */
  public static MetricsEndpoint start(InetSocketAddress address, Metrics metrics, Duration readTimeout)
      throws IOException {
    Selector selector = Selector.open();
    ServerSocketChannel listener = ServerSocketChannel.open();
    try {
      listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      listener.bind(address, 64);
      listener.configureBlocking(false);
      listener.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException | RuntimeException e) {
      listener.close();
      selector.close();
      throw e;
    }
    MetricsEndpoint endpoint = new MetricsEndpoint(listener, selector, metrics, readTimeout);
    endpoint.thread.start();
    return endpoint;
  }

  /** The bound port. */
  public int port() {
    return listener.socket().getLocalPort();
  }

  private void serve() {
    try {
      while (!closed) {
        long now = System.nanoTime();
        long wait = closeExpired(now);
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
        Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
        while (ready.hasNext()) {
          SelectionKey key = ready.next();
          ready.remove();
          if (key.isValid() && key.isAcceptable()) {
            accept();
          } else if (key.isValid()) {
            step(key);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        LOG.error("the metrics endpoint stopped: {}", e.toString(), e);
      }
    } finally {
      connections.keySet().forEach(MetricsEndpoint::closeQuietly);
      connections.clear();
    }
  }

  private void accept() throws IOException {
    SocketChannel channel;
    while ((channel = listener.accept()) != null) {
      if (connections.size() >= MAX_CONNECTIONS) {
        close(connections.keySet().iterator().next());
      }
      channel.configureBlocking(false);
      channel.register(selector, SelectionKey.OP_READ);
      connections.put(channel, new MetricsConnection(channel, System.nanoTime() + timeoutNanos));
    }
  }

  private void step(SelectionKey key) {
    SocketChannel channel = (SocketChannel) key.channel();
    MetricsConnection connection = connections.get(channel);
    if (connection == null) {
      closeQuietly(channel);
      return;
    }
    try {
      if (!connection.answering()) {
        if (!connection.read(metrics::render, System.nanoTime() + timeoutNanos)) {
          close(channel);
          return;
        }
        if (connection.answering()) {
          key.interestOps(SelectionKey.OP_WRITE);
        }
      }
      if (connection.answering() && connection.write()) {
        close(channel);
      }
    } catch (IOException e) {
      close(channel); // the client went away
    } catch (RuntimeException e) {
      // A failure to render is this server's bug: that scrape fails, the endpoint keeps serving.
      LOG.warn("answering a metrics request failed: {}", e.toString(), e);
      close(channel);
    }
  }

  /** Closes the connections past their deadline; returns how long until the next deadline. */
  private long closeExpired(long now) {
    long wait = TimeUnit.SECONDS.toNanos(1);
    List<SocketChannel> expired = new ArrayList<>();
    for (MetricsConnection connection : connections.values()) {
      long left = connection.deadlineNanos() - now;
      if (left <= 0) {
        expired.add(connection.channel());
      } else {
        wait = Math.min(wait, left);
      }
    }
    expired.forEach(this::close);
    return wait;
  }

  private void close(SocketChannel channel) {
    connections.remove(channel);
    closeQuietly(channel);
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // Closing a socket the client may have reset already; nothing is left to release.
    }
  }

  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      listener.close();
      selector.close();
    } catch (IOException e) {
      // The port is released with the process at the latest.
    }
  }
}
