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
  /**
   * Counts local changes and ended streams, so that a status computed before one is not taken as
   * synced after it.
   */
  private long version;

  public synchronized SyncStatus current() {
    return current;
  }

  /** The version to pass to {@link #set(SyncStatus, long)} for a status computed from now on. */
  public synchronized long version() {
    return version;
  }

  /**
   * Something local changed that sync has not seen yet (an append, a policy change): the status is
   * no longer synced, at once, before the sync thread gets to it.
   */
  public void changed() {
    leaveSynced(1);
  }

  /**
   * Sync learned of work it has not done yet (a live stream ended, so its space may have to catch up
   * or repair): the status is no longer synced, at once, and a status computed from the state before
   * is not taken as synced either; only one computed after the work is.
   */
  public void unsettled() {
    leaveSynced(0);
  }

  private void leaveSynced(long moreToPush) {
    SyncStatus status;
    synchronized (this) {
      version++;
      if (!current.isSynced()) {
        return;
      }
      status = new SyncStatus(SyncStatus.State.SYNCING, current.toPush() + moreToPush, current.toPull(),
          current.lastError(), List.of(), current.historyUnavailable());
    }
    set(status);
  }

  /**
   * Sets a status computed from the state at {@code versionAtStart}; a synced status is not taken if
   * something changed locally meanwhile.
   */
  public void set(SyncStatus status, long versionAtStart) {
    synchronized (this) {
      if (status.isSynced() && version != versionAtStart) {
        return;
      }
    }
    set(status);
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
