package dev.feedstore.server.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.util.Callback;

/**
 * An event stream's output that records what is written and keeps each write in flight until the
 * test completes it ({@link #complete}), as a connection whose socket is full would; or, once told
 * ({@link #completeAtOnce}), completes each write inside the call, as Jetty does when the socket
 * takes it whole. Used from one thread at a time.
 */
public final class RecordingOutput implements SseWriter.Output {
  /** The text of each write, in order; the last one's flag. */
  public final List<String> writes = new ArrayList<>();
  /** The array behind each write's buffer, in order, so that a test can tell which writes share one. */
  public final List<byte[]> arrays = new ArrayList<>();
  public final List<Callback> inFlight = new ArrayList<>();
  public boolean lastWritten;
  public Throwable failed;
  public String endedWith;
  public int events;
  private boolean atOnce;
  private Consumer<Throwable> gone = failure -> { };

  /** From now on every write completes inside the call. */
  public void completeAtOnce() {
    atOnce = true;
  }

  /**
   * Every one of {@code outputs} completes the write it has in flight and, from now on, each write
   * inside the call: connections that take everything again.
   */
  public static void takeEverything(List<RecordingOutput> outputs) {
    for (RecordingOutput output : outputs) {
      output.completeAtOnce();
      output.complete();
    }
  }

  /** Completes the oldest write in flight. */
  public void complete() {
    inFlight.remove(0).succeeded();
  }

  /** The client goes away. */
  public void leave(Throwable failure) {
    gone.accept(failure);
  }

  @Override
  public void write(boolean last, ByteBuffer events, Callback done) {
    arrays.add(events.hasArray() ? events.array() : null);
    byte[] bytes = new byte[events.remaining()];
    events.get(bytes);
    writes.add(new String(bytes, StandardCharsets.UTF_8));
    lastWritten |= last;
    if (atOnce || last) {
      done.succeeded();
    } else {
      inFlight.add(done);
    }
  }

  @Override
  public Callback completion() {
    return Callback.from(() -> { }, failure -> failed = failure);
  }

  @Override
  public void onFailure(Consumer<Throwable> listener) {
    gone = listener;
  }

  @Override
  public void eventSent() {
    events++;
  }

  @Override
  public void ended(String code) {
    endedWith = code;
  }
}
