package dev.feedstore.server.internal.live;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one live stream's work serially on a shared executor (a {@link DrainQueue}): {@link
 * #schedule} from any thread runs the turn once more after every call, never two at once, never a
 * thread per stream. A turn that says more may be due ends the run and queues the drain again,
 * behind the streams that waited meanwhile, still owning it: schedules until the next turn only
 * count, and that turn serves them all. Thread-safe.
 */
public final class SerialDrain {
  /** One turn of the work; true when more may be due now. Must not throw. */
  public interface Turn {
    boolean run();
  }

  private final Executor executor;
  private final Turn turn;
  private final Runnable rejected;
  private final AtomicInteger wip = new AtomicInteger();
  /** What the executor runs: made once, not at every hand-off. */
  private final Runnable run = this::drain;

  /**
   * @param rejected runs, on the scheduling thread, when the executor takes no more work (the server
   *     is stopping); the drain is then never run again
   */
  public SerialDrain(Executor executor, Turn turn, Runnable rejected) {
    this.executor = executor;
    this.turn = turn;
    this.rejected = rejected;
  }

  /** Runs the turn once more, now or after the one running. */
  public void schedule() {
    if (wip.getAndIncrement() == 0) {
      submit();
    }
  }

  /**
   * Runs the turn of every drain of {@code drains} once more, as {@link #schedule} each does; the
   * drains that must be handed to their executor go together when it is a {@link DrainQueue}
   * ({@link DrainQueue#executeAll}): one hand-off for the streams a commit signalled.
   */
  public static void scheduleAll(List<SerialDrain> drains) {
    List<SerialDrain> due = new ArrayList<>(drains.size());
    for (SerialDrain drain : drains) {
      if (drain.wip.getAndIncrement() == 0) {
        due.add(drain);
      }
    }
    int from = 0;
    while (from < due.size()) {
      Executor executor = due.get(from).executor;
      int to = from + 1;
      while (to < due.size() && due.get(to).executor == executor) {
        to++;
      }
      List<SerialDrain> same = due.subList(from, to);
      if (executor instanceof DrainQueue queue && same.size() > 1) {
        List<Runnable> runs = new ArrayList<>(same.size());
        same.forEach(drain -> runs.add(drain.run));
        List<Runnable> refused = queue.executeAll(runs);
        for (SerialDrain drain : same) {
          if (!refused.isEmpty() && refused.contains(drain.run)) {
            drain.rejected.run();
          }
        }
      } else {
        same.forEach(SerialDrain::submit);
      }
      from = to;
    }
  }

  private void submit() {
    try {
      executor.execute(run);
    } catch (RejectedExecutionException e) {
      rejected.run();
    }
  }

  private void drain() {
    int missed = 1;
    do {
      if (turn.run()) {
        wip.set(1);
        submit();
        return;
      }
      missed = wip.addAndGet(-missed);
    } while (missed != 0);
  }
}
