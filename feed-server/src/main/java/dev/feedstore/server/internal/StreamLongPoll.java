package dev.feedstore.server.internal;

import dev.feedstore.core.CursorCompactedException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Durable Stream's {@code live=long-poll} wait as a {@link LiveSink} of the live follower, which
 * follows the stream's own feed from the tail: the first blocks it sends, the stream closing, a
 * compaction passing the follower, or the wait's end ({@link #fire}) make the request answer once,
 * by reading the stream again from the request's offset (200 with the data, 204 with the tail, or
 * 410 if retention removed some of the stream's data after it). The follower is then released.
 * Thread-safe.
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

  @Override
  public void start(Runnable ready, Runnable gone) {
    onGone = gone;
    exchange.request().addFailureListener(failure -> {
      if (answered.compareAndSet(false, true)) {
        exchange.ended("CANCELLED");
        gone.run();
        exchange.callback().failed(failure);
      }
    });
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
