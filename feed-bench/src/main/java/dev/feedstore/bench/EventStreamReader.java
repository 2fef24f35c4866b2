package dev.feedstore.bench;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Recorder;

/**
 * One Server-Sent Events response of a fan-out case, as {@link EventStreamClient} reads it: the body
 * comes in runs of bytes ({@link #scan}), which a subclass scans for the blocks, handing each to
 * {@link #block} with the time it was due, and in which it finds when the stream is live ({@link
 * #live}). The blocks of a run arrived when the run was read; their delays are recorded once per
 * due time and run (the blocks of one append share theirs), each block counted.
 *
 * <p>Confined to the client's thread that reads the stream, but for the counters, the latch, the
 * failure and {@link #cancel}, which any thread may use.
 */
abstract class EventStreamReader {
  final Recorder recorder;
  final CountDownLatch live = new CountDownLatch(1);
  final AtomicLong blocks = new AtomicLong();
  final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile Runnable closer = () -> {};
  private volatile boolean cancelled;
  /** When the run being scanned was read ({@link System#nanoTime}). */
  private long now;
  /** The due time of the blocks of this run not recorded yet, and how many of them had one. */
  private long runDue;
  private long runDelays;
  private long runBlocks;

  EventStreamReader(Recorder recorder) {
    this.recorder = recorder;
  }

  static void close(List<? extends EventStreamReader> streams) {
    streams.forEach(EventStreamReader::cancel);
  }

  /** The failures of the streams that ended, as rows {@code PREFIX.streams_ended}. */
  static void ended(ResultTable table, String prefix, List<? extends EventStreamReader> streams) {
    List<Throwable> ended = streams.stream().map(stream -> stream.failure.get()).filter(Objects::nonNull).toList();
    // A stream the server ended (it cuts a reader that took nothing for its idle timeout) is a
    // result, not a failure of the benchmark: its blocks count as undelivered.
    table.add(prefix + ".streams_ended", ended.size(), "streams", ResultTable.Target.atMost(0, "streams"));
    if (!ended.isEmpty()) {
      Progress.say("%s: %d streams ended before the end, the first with %s", prefix, ended.size(), ended.get(0));
    }
  }

  /**
   * Scans the body's bytes {@code [from, to)}, the next after those scanned before, calling {@link
   * #block} for each block that ends in them.
   *
   * @throws java.io.IOException if they are not what the stream sends (the stream then fails)
   */
  abstract void scan(byte[] bytes, int from, int to) throws java.io.IOException;

  /** The runs scanned until {@link #flush} were read at {@code value} ({@link System#nanoTime}). */
  final void readAt(long value) {
    now = value;
  }

  /** A block due at {@code due} ({@link System#nanoTime}; 0 for none) is in the run being scanned. */
  final void block(long due) {
    if (due != runDue) {
      recordRun();
      runDue = due;
    }
    if (due != 0) {
      runDelays++;
    }
    runBlocks++;
  }

  /** Records the delays and counts the blocks of the runs scanned since the last flush. */
  final void flush() {
    recordRun();
    if (runBlocks > 0) {
      blocks.addAndGet(runBlocks); // after their delays: a reader that sees every block counted sees their delays too
      runBlocks = 0;
    }
  }

  private void recordRun() {
    if (runDelays > 0) {
      StreamMeasure.delivered(recorder, runDue, now, runDelays);
      runDelays = 0;
    }
  }

  /** The response ended: a stream that the benchmark did not close fails, so its missing blocks count. */
  final void ended() {
    if (!cancelled) {
      fail(new IllegalStateException("the server ended the event stream"));
    }
  }

  /** The stream failed with {@code t}, unless the benchmark closed it. */
  final void fail(Throwable t) {
    if (!cancelled) {
      failure.compareAndSet(null, t);
    }
    live.countDown();
  }

  /** Hooks what closes the stream's connection. */
  final void closeWith(Runnable value) {
    closer = value;
  }

  /** Closes the stream; it then fails no more. */
  final void cancel() {
    cancelled = true;
    closer.run();
  }
}
