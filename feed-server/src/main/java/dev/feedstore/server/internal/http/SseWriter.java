package dev.feedstore.server.internal.http;

import static dev.feedstore.server.settings.ServerSettings.SSE_GZIP_LEVEL;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * The writing side of a Server-Sent Events response, shared by the event streams of the API ({@link
 * SseSink}) and of Durable Streams ({@code StreamSseSink}): one write at a time, ready again when
 * Jetty has written the last one to the socket, so a reader that stops reading holds one batch of
 * events in the server, never a queue; a last write waits for the one in flight; a client that went
 * away (a failed write, a closed connection, an idle timeout) releases the stream and fails the
 * response's callback unless the last write has it already. With {@code sse-gzip-level} above 0 and
 * a client that takes gzip, the response goes gzipped, each write flushed so that its events are
 * decoded when they arrive ({@link SseGzip}).
 *
 * <p>Thread-safe: writes come from the follower's drain, completions from Jetty's threads.
 */
public final class SseWriter {
  private final HttpExchange exchange;
  private final Response response;
  private final Object lock = new Object();
  /** Guarded by lock: a write is in flight. */
  private boolean writing;
  /** Guarded by lock: the stream has ended (or is ending): nothing more is taken. */
  private boolean ended;
  /** Guarded by lock: the last write, waiting for the one in flight. */
  private ByteBuffer pendingEnd;
  /** Guarded by lock: the response's callback was handed to the last write, or failed. */
  private boolean completed;
  private volatile Runnable onReady = () -> {};
  private volatile Runnable onGone = () -> {};
  /** Set by {@link #start} when the response goes gzipped; encoded one write at a time. */
  private volatile SseGzip gzip;

  public SseWriter(HttpExchange exchange) {
    this.exchange = exchange;
    this.response = exchange.response();
  }

  /**
   * Hooks the follower's handlers (see {@code LiveSink.start}) and watches for the client leaving;
   * called once the response's other headers are set, before the first write.
   */
  public void start(Runnable ready, Runnable gone) {
    gzip = encoding(exchange);
    onReady = ready;
    onGone = gone;
    exchange.request().addFailureListener(this::gone);
  }

  /**
   * Answers {@code exchange}, an event stream whose headers are set, with {@code events} and ends
   * it: one write, gzipped as {@link #start} would.
   */
  public static void whole(HttpExchange exchange, ByteBuffer events) {
    SseGzip encoding = encoding(exchange);
    exchange.response().write(true, encoding == null ? events : encoding.finish(events), exchange.callback());
  }

  /**
   * The gzip encoding of the event stream {@code exchange} answers, when {@code sse-gzip-level} is
   * above 0 and the client takes gzip, its headers set; null when it goes as it is.
   */
  private static SseGzip encoding(HttpExchange exchange) {
    int level = exchange.core().settings().get(SSE_GZIP_LEVEL);
    if (level == 0 || !SseGzip.accepts(exchange.request().getHeaders().get(HttpHeader.ACCEPT_ENCODING))) {
      return null;
    }
    exchange.response().getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
    exchange.response().getHeaders().put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
    return new SseGzip(level);
  }

  /** True when a write would go out now. */
  public boolean isReady() {
    synchronized (lock) {
      return !writing && !ended;
    }
  }

  /** Writes events; ignored once the stream ended. */
  public void write(ByteBuffer buffer) {
    synchronized (lock) {
      if (ended) {
        return;
      }
      writing = true;
    }
    exchange.eventSent();
    SseGzip encoding = gzip;
    ByteBuffer bytes = encoding == null ? buffer : encoding.encode(buffer);
    response.write(false, bytes, Callback.from(Invocable.InvocationType.NON_BLOCKING, this::written, this::failed));
  }

  /** Writes the last events and completes the response, after the write in flight; once. */
  public void end(ByteBuffer last) {
    synchronized (lock) {
      if (ended) {
        return;
      }
      ended = true;
      if (writing) {
        pendingEnd = last;
        return;
      }
      completed = true;
    }
    response.write(true, lastBytes(last), exchange.callback());
  }

  /** The bytes of the last write: {@code last}, or its encoding and the end of the gzip member. */
  private ByteBuffer lastBytes(ByteBuffer last) {
    SseGzip encoding = gzip;
    return encoding == null ? last : encoding.finish(last);
  }

  private void written() {
    ByteBuffer last;
    synchronized (lock) {
      writing = false;
      last = pendingEnd;
      pendingEnd = null;
      completed |= last != null;
    }
    if (last != null) {
      response.write(true, lastBytes(last), exchange.callback());
    } else {
      onReady.run();
    }
  }

  private void failed(Throwable failure) {
    synchronized (lock) {
      writing = false;
      pendingEnd = null;
    }
    gone(failure);
  }

  private void gone(Throwable failure) {
    boolean fail;
    synchronized (lock) {
      ended = true;
      fail = !completed;
      completed = true;
    }
    SseGzip encoding = gzip;
    if (encoding != null) {
      encoding.release();
    }
    exchange.ended("CANCELLED");
    onGone.run();
    if (fail) {
      exchange.callback().failed(failure);
    }
  }
}
