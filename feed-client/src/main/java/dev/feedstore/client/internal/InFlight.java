package dev.feedstore.client.internal;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The blocks one stream of a durable consumer delivered and the authority has not acknowledged,
 * and whether the stream may send more: the next event is asked for only while fewer than the bound
 * are in flight, so at most the bound less one plus one batch of the stream are. Thread-safe: the
 * transport's thread counts what arrives, the consumer's thread what is acknowledged.
 */
final class InFlight {
  private final int max;
  /** The positions of each batch with blocks in flight, oldest first. */
  private final ArrayDeque<long[]> batches = new ArrayDeque<>();
  private int count;
  /** Whether the stream was left without a request because the bound was reached. */
  private boolean paused;

  InFlight(int max) {
    this.max = max;
  }

  /**
   * A stream event with blocks at {@code positions} (none for a heartbeat) arrived.
   *
   * @return whether to ask for the next event now; if not, {@link #acknowledged} says when
   */
  synchronized boolean received(long[] positions) {
    if (positions.length > 0) {
      batches.addLast(positions);
      count += positions.length;
    }
    paused = count >= max;
    return !paused;
  }

  /**
   * The authority acknowledged every block up to {@code upTo}.
   *
   * @return whether to ask for the next event now (the stream waited for room, and there is)
   */
  synchronized boolean acknowledged(long upTo) {
    while (!batches.isEmpty()) {
      long[] oldest = batches.peekFirst();
      int done = 0;
      while (done < oldest.length && oldest[done] <= upTo) {
        done++;
      }
      count -= done;
      if (done < oldest.length) {
        batches.removeFirst();
        batches.addFirst(Arrays.copyOfRange(oldest, done, oldest.length));
        break;
      }
      batches.removeFirst();
    }
    if (paused && count < max) {
      paused = false;
      return true;
    }
    return false;
  }

  synchronized int count() {
    return count;
  }
}
