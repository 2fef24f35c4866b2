package dev.feedstore.server.internal.live;

import dev.feedstore.server.internal.spaces.Encodings;
import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.List;

/**
 * A {@link LiveSink} that runs {@code after} when its stream ends or its client leaves, whichever
 * comes first (it may run twice; it must be idempotent): a live read's clean-up of what it holds
 * beside the follower, such as a close listener and a timer. Thread-safe as the sink it wraps.
 */
public final class LiveSinkAfter implements LiveSink {
  private final LiveSink sink;
  private final Runnable after;

  public LiveSinkAfter(LiveSink sink, Runnable after) {
    this.sink = sink;
    this.after = after;
  }

  @Override
  public void start(Runnable onReady, Runnable onGone) {
    sink.start(onReady, () -> {
      after.run();
      onGone.run();
    });
  }

  @Override
  public boolean isReady() {
    return sink.isReady();
  }

  @Override
  public void history(Head head, Page page) {
    sink.history(head, page);
  }

  @Override
  public void sharedHistory(Head head, Page page, Encodings encodings) {
    sink.sharedHistory(head, page, encodings);
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    sink.live(head, entries);
  }

  @Override
  public void caughtUp(Head head) {
    sink.caughtUp(head);
  }

  @Override
  public void heartbeat(Head head) {
    sink.heartbeat(head);
  }

  @Override
  public void end(RuntimeException reason) {
    after.run();
    sink.end(reason);
  }
}

