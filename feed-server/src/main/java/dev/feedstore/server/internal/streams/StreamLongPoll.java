package dev.feedstore.server.internal.streams;

import dev.feedstore.core.CursorCompactedException;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.http.HttpExchange;
import dev.feedstore.server.internal.live.LiveSink;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Durable Stream's {@code live=long-poll} wait as a {@link LiveSink} of the live follower, which
 * follows the stream's own feed from the tail: the first blocks it sends, the stream closing, a
 * compaction passing the follower, or the wait's end ({@link #fire}) make the request answer once,
 * by reading the stream again from the request's offset (200 with the data, 204 with the tail, or
 * 410 if retention removed some of the stream's data after it). The follower is then released, also
 * when the wait was answered before the follower started. Thread-safe.
 */
final class StreamLongPoll implements LiveSink {
  private final HttpExchange exchange;
  private final Runnable answer;
  private final Executor executor;
  private final AtomicBoolean answered = new AtomicBoolean();
  private volatile Runnable onGone = () -> {};

  /** @param answer writes the answer; runs once, on {@code executor} */
  StreamLongPoll(HttpExchange exchange, Runnable answer, Executor executor) {
    this.exchange = exchange;
    this.answer = answer;
    this.executor = executor;
  }

  /**
   * {@inheritDoc} A wait answered before its follower started (it ended, or the stream closed, while
   * the follower was being opened) runs {@code gone} at once: the follower has nothing left to do.
   */
  @Override
  public void start(Runnable ready, Runnable gone) {
    onGone = gone;
    // fire() sets answered before it reads onGone: one of the two runs gone, or both do.
    if (answered.get()) {
      gone.run();
      return;
    }
    try {
      exchange.request().addFailureListener(failure -> {
        if (answered.compareAndSet(false, true)) {
          exchange.ended("CANCELLED");
          gone.run();
          exchange.callback().failed(failure);
        }
      });
    } catch (IllegalStateException e) {
      // Jetty is done with the request: its answer completed since answered was read.
      answered.set(true);
      gone.run();
    }
  }

  @Override
  public boolean isReady() {
    return !answered.get();
  }

  @Override
  public void history(Head head, Page page) {
    fire();
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    fire();
  }

  @Override
  public void caughtUp(Head head) {}

  @Override
  public void heartbeat(Head head) {}

  @Override
  public void end(RuntimeException reason) {
    // A compaction that passed the follower may have taken none of this stream: the read decides (410 or data).
    if (reason instanceof StreamSseSink.Closed || reason instanceof CursorCompactedException) {
      fire();
    } else if (answered.compareAndSet(false, true)) {
      onGone.run();
      exchange.fail(reason);
    }
  }

  /** Answers now (data arrived, the stream closed, or the wait is over), once. */
  void fire() {
    if (!answered.compareAndSet(false, true)) {
      return;
    }
    onGone.run();
    try {
      executor.execute(answer);
    } catch (RejectedExecutionException e) {
      exchange.fail(new ShuttingDownException());
    }
  }
}
