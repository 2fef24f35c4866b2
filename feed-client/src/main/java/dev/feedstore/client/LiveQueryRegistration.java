package dev.feedstore.client;

import dev.feedstore.core.query.LiveQuery;
import java.time.Duration;

/** A live query's registration ({@link Replica#liveQuery}); closing it stops further events. */
public interface LiveQueryRegistration extends Registration {
  /** The query this registration follows. */
  LiveQuery query();

  /**
   * Waits until the listeners of this replica's live queries have been told every commit this
   * replica made before the call (and this registration's snapshot), or until {@code timeout}
   * passes. For code that must show a write at once, such as a model whose view is read right after
   * it appended.
   *
   * @return false if the timeout passed first
   * @throws IllegalStateException if called on the replica's listener thread (it would wait for
   *     itself)
   * @throws InterruptedException if the thread was interrupted while waiting
   */
  boolean awaitCurrent(Duration timeout) throws InterruptedException;
}
