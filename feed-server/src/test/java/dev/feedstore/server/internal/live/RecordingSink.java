package dev.feedstore.server.internal.live;

import dev.feedstore.server.internal.spaces.Page;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A {@link LiveSink} that records what a live stream sends: the positions, the size of each live
 * batch, the first event's head and the end. Ready unless a test says otherwise ({@link #ready});
 * {@link #becomeReady} runs the follower's ready hook as a transport would, and {@link #atStart} is
 * given the follower's gone hook as the follower starts (a test may run it there, as a transport
 * whose client left would, or throw); {@link #beforeEvent} runs before each event is recorded (a
 * test may throw there, as a failing transport would). Used from one thread at a time, as the
 * follower's drain is.
 */
final class RecordingSink implements LiveSink {
  final List<Long> positions = new ArrayList<>();
  final List<Integer> liveBatches = new ArrayList<>();
  volatile boolean ready = true;
  Head firstHead;
  RuntimeException ended;
  volatile Consumer<Runnable> atStart = gone -> { };
  volatile Runnable beforeEvent = () -> { };
  private Runnable onReady = () -> { };

  /** The transport takes events again: runs the ready hook. */
  void becomeReady() {
    ready = true;
    onReady.run();
  }

  @Override
  public void start(Runnable onReady, Runnable onGone) {
    this.onReady = onReady;
    atStart.accept(onGone);
  }

  @Override
  public boolean isReady() {
    return ready;
  }

  @Override
  public void history(Head head, Page page) {
    first(head);
    page.blocks().forEach(block -> positions.add(block.position().value()));
  }

  @Override
  public void live(Head head, List<TailEntry> entries) {
    first(head);
    liveBatches.add(entries.size());
    entries.forEach(entry -> positions.add(entry.position()));
  }

  @Override
  public void caughtUp(Head head) {
    first(head);
  }

  @Override
  public void heartbeat(Head head) {
    first(head);
  }

  @Override
  public void end(RuntimeException reason) {
    if (ended == null) {
      ended = reason;
    }
  }

  private void first(Head head) {
    beforeEvent.run();
    if (firstHead == null) {
      firstHead = head;
    }
  }
}
