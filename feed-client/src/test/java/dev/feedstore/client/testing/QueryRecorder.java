package dev.feedstore.client.testing;

import dev.feedstore.client.LiveQueryEvent;
import dev.feedstore.client.LiveQueryListener;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ResultCopy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A live query's listener for tests: keeps every event, in order, and a copy of the result made by
 * applying them ({@link ResultCopy}, which refuses a batch that does not fit). Thread-safe: the
 * listener thread adds, the test reads.
 */
public final class QueryRecorder implements LiveQueryListener {
  private final ResultCopy copy;
  private final BlockingQueue<LiveQueryEvent> unread = new LinkedBlockingQueue<>();
  private final List<LiveQueryEvent> all = new ArrayList<>();
  private final List<RuntimeException> misfits = new ArrayList<>();

  public QueryRecorder(LiveQuery query) {
    this.copy = new ResultCopy(query);
  }

  @Override
  public synchronized void onEvent(LiveQueryEvent event) {
    try {
      event.applyTo(copy);
    } catch (RuntimeException e) {
      misfits.add(e);
    }
    all.add(event);
    unread.add(event);
  }

  /** The next event not read yet; fails after {@code timeout}. */
  public LiveQueryEvent next(Duration timeout) {
    try {
      LiveQueryEvent event = unread.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (event == null) {
        throw new AssertionError("no live query event within " + timeout + "; events so far " + events());
      }
      return event;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  public LiveQueryEvent next() {
    return next(Duration.ofSeconds(20));
  }

  /** The event not read yet, if one came. */
  public LiveQueryEvent poll() {
    return unread.poll();
  }

  /** The rows of the copy made by applying every event in order. */
  public synchronized List<Row> rows() {
    return copy.rows();
  }

  public synchronized List<LiveQueryEvent> events() {
    return List.copyOf(all);
  }

  /** Batches the copy refused (it missed, repeated or reordered an event). */
  public synchronized List<RuntimeException> misfits() {
    return List.copyOf(misfits);
  }
}
