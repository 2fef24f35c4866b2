package dev.feedstore.client.internal;

import dev.feedstore.client.Registration;
import dev.feedstore.client.SyncStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Holds the current {@link SyncStatus}, tells listeners when it changes, lets callers wait for it. Thread-safe. */
public final class StatusTracker {
  private static final Logger log = LoggerFactory.getLogger(StatusTracker.class);

  private final List<Consumer<SyncStatus>> listeners = new CopyOnWriteArrayList<>();
  private SyncStatus current = SyncStatus.OFFLINE_INITIALLY;

  public synchronized SyncStatus current() {
    return current;
  }

  public void set(SyncStatus status) {
    synchronized (this) {
      if (status.equals(current)) {
        return;
      }
      current = status;
      notifyAll();
    }
    for (Consumer<SyncStatus> listener : listeners) {
      try {
        listener.accept(status);
      } catch (RuntimeException e) {
        log.warn("sync status listener threw", e);
      }
    }
  }

  /** Waits until the status is synced; returns false if {@code timeout} passes first. */
  public synchronized boolean awaitSynced(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!current.isSynced()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  public Registration listen(Consumer<SyncStatus> listener) {
    listeners.add(listener);
    listener.accept(current());
    return () -> listeners.remove(listener);
  }
}
