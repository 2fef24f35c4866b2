package dev.feedstore.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The HTTP/1.1 client of the fan-out cases' event streams: each stream a {@code GET} on a connection
 * of its own, as a browser's {@code EventSource} holds one, and all of them read by {@value
 * #THREADS} threads, each a selector over its share of the connections that reads whatever a
 * connection holds into one large buffer and hands it to the stream's {@link EventStreamResponse}.
 * The streams' readers run on the same cores as the server they measure, so they do only what a
 * measurement needs: java.net.http, which the cases used before, took more of those cores for its
 * reading path than the server took for its writing path, and the delays it measured were its own
 * backlog (feed-bench/results/ssefanout-profile.md).
 *
 * <p>Thread-safe. {@link #close} closes every stream and stops the threads.
 */
final class EventStreamClient implements AutoCloseable {
  /** The reading threads: the machine's two cores are shared with the server and the appender. */
  static final int THREADS = 2;
  /** What one read takes at most: every event a connection holds, most of the time. */
  private static final int READ_BYTES = 256 * 1024;

  private final List<Loop> loops = new ArrayList<>();
  private int next;

  EventStreamClient() {
    try {
      for (int i = 0; i < THREADS; i++) {
        Loop loop = new Loop(Selector.open());
        Thread thread = new Thread(loop, "event-stream-reader-" + i);
        thread.setDaemon(true);
        thread.start();
        loops.add(loop);
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("cannot open a selector", e);
    }
  }

  /**
   * Opens {@code count} streams of {@code GET path} on the loopback port {@code port}, each read by a
   * reader of {@code reader}, and waits until each is live.
   *
   * @throws IllegalStateException if one fails or is not live within a minute
   */
  <R extends EventStreamReader> List<R> open(int port, String path, int count, Supplier<R> reader)
      throws InterruptedException {
    byte[] request = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
        + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    List<R> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      R stream = reader.get();
      opened.add(stream);
      try {
        connect(port, request, stream);
      } catch (IOException e) {
        stream.fail(e);
      }
    }
    for (R stream : opened) {
      if (!stream.live.await(60, TimeUnit.SECONDS) || stream.failure.get() != null) {
        throw new IllegalStateException("an event stream did not become live", stream.failure.get());
      }
    }
    return opened;
  }

  private void connect(int port, byte[] request, EventStreamReader stream) throws IOException {
    SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
    stream.closeWith(() -> {
      try {
        channel.close();
      } catch (IOException e) {
        // closing a connection the server may have closed already
      }
    });
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    ByteBuffer out = ByteBuffer.wrap(request);
    while (out.hasRemaining()) {
      channel.write(out);
    }
    channel.configureBlocking(false);
    Loop loop;
    synchronized (loops) {
      loop = loops.get(next++ % loops.size());
    }
    loop.add(new Connection(channel, stream, new EventStreamResponse(stream)));
  }

  @Override
  public void close() {
    loops.forEach(Loop::stop);
  }

  /** One stream's connection, its response and its reader. */
  private record Connection(SocketChannel channel, EventStreamReader reader, EventStreamResponse response) {}

  /** One reading thread: a selector over its connections. */
  private static final class Loop implements Runnable {
    private final Selector selector;
    private final Queue<Connection> added = new ConcurrentLinkedQueue<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(READ_BYTES);
    private volatile boolean stopped;

    Loop(Selector selector) {
      this.selector = selector;
    }

    void add(Connection connection) {
      added.add(connection);
      selector.wakeup();
    }

    void stop() {
      stopped = true;
      selector.wakeup();
    }

    @Override
    public void run() {
      try (selector) {
        while (!stopped) {
          selector.select(this::read);
          Connection connection;
          while ((connection = added.poll()) != null) {
            register(connection);
          }
        }
        for (SelectionKey key : selector.keys()) {
          ((Connection) key.attachment()).reader().cancel();
        }
      } catch (IOException | ClosedSelectorException e) {
        // the selector is gone: nothing is read any more
      }
    }

    private void register(Connection connection) {
      try {
        connection.channel().register(selector, SelectionKey.OP_READ, connection);
      } catch (IOException e) {
        connection.reader().fail(e);
      }
    }

    /** Reads what the connection of {@code key} holds, as the reader's bytes, until it holds nothing more. */
    private void read(SelectionKey key) {
      Connection connection = (Connection) key.attachment();
      try {
        int n;
        do {
          buffer.clear();
          n = connection.channel().read(buffer);
          if (n > 0 && !connection.response().take(buffer.array(), 0, n, System.nanoTime())) {
            end(key, connection);
            return;
          }
        } while (n == buffer.capacity());
        if (n < 0) {
          end(key, connection);
        }
      } catch (IOException | RuntimeException e) {
        connection.reader().fail(e);
        key.cancel();
        connection.reader().cancel();
      }
    }

    private static void end(SelectionKey key, Connection connection) {
      key.cancel();
      connection.reader().ended();
      connection.reader().cancel();
    }
  }
}
