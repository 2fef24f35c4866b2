package dev.feedstore.server.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * The writing side of a Server-Sent Events response, shared by the event streams of the API ({@link
 * SseSink}) and of Durable Streams ({@code StreamSseSink}): one write at a time, ready again when
 * Jetty has written the last one to the socket (its write callback), so a reader that stops reading
 * holds one batch of events in the server, never a queue; a last write waits for the one in flight;
 * a client that went away (a failed write, a closed connection, an idle timeout) releases the stream
 * and fails the response's callback unless the last write has it already.
 *
 * <p>A completed write wakes the stream's follower ({@code onReady}) only when the follower found
 * the writer busy since that write began: a write Jetty finished at once, while the follower was
 * still sending, wakes nothing, and neither does one that finished before anything else was due.
 * So a commit reaches a stream whose connection is busy only once (it finds the writer busy), and
 * the write's completion brings the stream back for everything committed meanwhile, in one write.
 *
 * <p>Thread-safe: writes come from the follower's drain, completions from Jetty's threads.
 */
public final class SseWriter {
  /** Where the events go: the response of an exchange ({@link HttpExchange#events}), or a test's. */
  public interface Output {
    /** Writes {@code events}; {@code last} completes the response. {@code done} is told when they are written. */
    void write(boolean last, ByteBuffer events, Callback done);

    /** The response's own callback: what completes or fails the exchange. */
    Callback completion();

    /** Runs {@code gone} with the failure when the client goes away (its connection closed or timed out). */
    void onFailure(Consumer<Throwable> gone);

    /** One write of events went out. */
    void eventSent();

    /** The stream ended with {@code code}. */
    void ended(String code);
  }

  private final Output output;
  private final Object lock = new Object();
  /** Guarded by lock: a write is in flight. */
  private boolean writing;
  /** Guarded by lock: {@link #isReady} said false since the write in flight began: its end wakes the follower. */
  private boolean wanted;
  /** Guarded by lock: the stream has ended (or is ending): nothing more is taken. */
  private boolean ended;
  /** Guarded by lock: the last write, waiting for the one in flight. */
  private ByteBuffer pendingEnd;
  /** Guarded by lock: the response's callback was handed to the last write, or failed. */
  private boolean completed;
  private volatile Runnable onReady = () -> {};
  private volatile Runnable onGone = () -> {};

  public SseWriter(Output output) {
    this.output = output;
  }

  /** Hooks the follower's handlers (see {@code LiveSink.start}) and watches for the client leaving. */
  public void start(Runnable ready, Runnable gone) {
    onReady = ready;
    onGone = gone;
    output.onFailure(this::gone);
  }

  /** True when a write would go out now; false while one is in flight, whose end then wakes the follower. */
  public boolean isReady() {
    synchronized (lock) {
      wanted |= writing;
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
      wanted = false;
    }
    output.eventSent();
    output.write(false, buffer, Callback.from(Invocable.InvocationType.NON_BLOCKING, this::written, this::failed));
  }

  /**
   * Writes this stream's own {@code opening} events, if any, then {@code events}, which other streams
   * may write too: they are written as they are (Jetty only reads them), copied only behind an opening.
   */
  public void write(String opening, byte[] events) {
    if (opening.isEmpty()) {
      write(ByteBuffer.wrap(events));
      return;
    }
    byte[] first = opening.getBytes(StandardCharsets.UTF_8);
    write(ByteBuffer.allocate(first.length + events.length).put(first).put(events).flip());
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
    output.write(true, last, output.completion());
  }

  private void written() {
    ByteBuffer last;
    boolean wake;
    synchronized (lock) {
      writing = false;
      wake = wanted;
      wanted = false;
      last = pendingEnd;
      pendingEnd = null;
      completed |= last != null;
    }
    if (last != null) {
      output.write(true, last, output.completion());
    } else if (wake) {
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
    output.ended("CANCELLED");
    onGone.run();
    if (fail) {
      output.completion().failed(failure);
    }
  }
}
