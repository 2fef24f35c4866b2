package dev.feedstore.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.HdrHistogram.Recorder;

/**
 * One Server-Sent Events response of a fan-out case, read as bytes by a subclass ({@link #take}),
 * which counts the blocks it finds, records the delay of each and says when the stream is live
 * ({@link #live}). Confined to java.net.http's serialized subscriber callbacks but for the
 * counters, the latch and {@link #cancel}, which any thread may use.
 */
abstract class EventStreamReader implements Flow.Subscriber<List<ByteBuffer>> {
  final Recorder recorder;
  final CountDownLatch live = new CountDownLatch(1);
  final AtomicLong blocks = new AtomicLong();
  final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile Flow.Subscription subscription;

  EventStreamReader(Recorder recorder) {
    this.recorder = recorder;
  }

  /**
   * Opens {@code count} streams of {@code request} at once and waits until each is live.
   *
   * @throws IllegalStateException if one fails or is not live within a minute
   */
  static <R extends EventStreamReader> List<R> open(HttpClient http, HttpRequest request, int count,
      Function<Recorder, R> reader, Recorder recorder) throws InterruptedException {
    List<R> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      R stream = reader.apply(recorder);
      http.sendAsync(request, HttpResponse.BodyHandlers.fromSubscriber(stream)).whenComplete((response, failed) -> {
        if (failed != null) {
          stream.fail(failed);
        } else if (response.statusCode() != 200) {
          stream.fail(new IllegalStateException("the event stream was answered " + response.statusCode()));
        }
      });
      opened.add(stream);
    }
    for (R stream : opened) {
      if (!stream.live.await(60, TimeUnit.SECONDS) || stream.failure.get() != null) {
        throw new IllegalStateException("an event stream did not become live", stream.failure.get());
      }
    }
    return opened;
  }

  static void close(List<? extends EventStreamReader> streams) {
    streams.forEach(EventStreamReader::cancel);
  }

  /** The failures of the streams that ended, as rows {@code PREFIX.streams_ended}. */
  static void ended(ResultTable table, String prefix, List<? extends EventStreamReader> streams) {
    List<Throwable> ended = streams.stream().map(stream -> stream.failure.get())
        .filter(java.util.Objects::nonNull).toList();
    // A stream the server ended (it cuts a reader that took nothing for its idle timeout) is a
    // result, not a failure of the benchmark: its blocks count as undelivered.
    table.add(prefix + ".streams_ended", ended.size(), "streams", ResultTable.Target.atMost(0, "streams"));
    if (!ended.isEmpty()) {
      Progress.say("%s: %d streams ended before the end, the first with %s", prefix, ended.size(), ended.get(0));
    }
  }

  /** One byte of the stream, which arrived at {@code now} ({@link System#nanoTime}). */
  abstract void take(byte b, long now);

  /** A block that was due at {@code due} ({@link System#nanoTime}; 0 for none) arrived at {@code now}. */
  final void block(long due, long now) {
    if (due != 0) {
      StreamMeasure.delivered(recorder, due, now);
    }
    blocks.incrementAndGet();
  }

  @Override
  public final void onSubscribe(Flow.Subscription value) {
    subscription = value;
    value.request(Long.MAX_VALUE);
  }

  @Override
  public final void onNext(List<ByteBuffer> buffers) {
    long now = System.nanoTime();
    for (ByteBuffer buffer : buffers) {
      while (buffer.hasRemaining()) {
        take(buffer.get(), now);
      }
    }
  }

  @Override
  public final void onError(Throwable t) {
    fail(t);
  }

  @Override
  public void onComplete() {
    live.countDown();
  }

  final void fail(Throwable t) {
    failure.compareAndSet(null, t);
    live.countDown();
  }

  final void cancel() {
    Flow.Subscription current = subscription;
    if (current != null) {
      current.cancel();
    }
  }

  /** How much of {@code pattern} is matched after {@code b}, having matched {@code matched} before it. */
  static int step(byte[] pattern, int matched, byte b) {
    if (pattern[matched] == b) {
      return matched + 1;
    }
    return pattern[0] == b ? 1 : 0;
  }
}
