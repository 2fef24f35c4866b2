package dev.feedstore.server.internal;

import static dev.feedstore.server.ServerSettings.WRITE_PROBE_MS;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StorageFaultException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the server's storage takes writes, as the writes themselves and a periodic write probe
 * ({@link AuthorityStore#probeWrite}) find. A write that fails on the storage marks it failing at once.
 * Only a probe marks it writable again: a small write can commit on a full disk, in space the WAL
 * already holds, while the next larger one cannot, and the probe checks for room as well. A write
 * that commits while the storage is marked failing asks for a probe at once, so a recovery shows
 * without waiting for the interval. Each change is logged once and handed to the listener (the
 * health service).
 *
 * <p>Thread-safe. Owns the probe's thread, which {@link #close} stops; does not own the store.
 */
final class StorageHealth implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("dev.feedstore.server");

  private final AuthorityStore<?> store;
  private final long intervalMillis;
  private final ScheduledExecutorService prober =
      Executors.newSingleThreadScheduledExecutor(new NamedThreads("feed-write-probe"));
  private final AtomicBoolean probeQueued = new AtomicBoolean();
  /** Guarded by this; null while writes succeed. */
  private StorageFaultException fault;
  /**
   * Guarded by this: storage faults seen so far, so that a probe that began before a write failed
   * does not mark the storage writable after it.
   */
  private long faults;
  /** Guarded by this. */
  private Consumer<Boolean> listener = writable -> {};
  /** Read without the lock on every write, so that the common case costs one volatile read. */
  private volatile boolean failing;

  StorageHealth(AuthorityStore<?> store, long intervalMillis) {
    this.store = store;
    this.intervalMillis = intervalMillis;
  }

  /** Tells {@code value} of every change: true when writes succeed again, false when they fail. */
  synchronized void listen(Consumer<Boolean> value) {
    listener = value;
  }

  /**
   * Runs the probe once, on the caller's thread, before the server starts; marks nothing (a server
   * that cannot write does not start).
   *
   * @throws StorageFaultException if the storage cannot take writes
   */
  void check() {
    store.probeWrite();
  }

  /** Probes every {@code write-probe-ms} from now on. */
  void start() {
    prober.scheduleWithFixedDelay(this::probe, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** A write committed: if the storage is marked failing, probe now. */
  void wrote() {
    if (failing && probeQueued.compareAndSet(false, true)) {
      try {
        prober.execute(() -> {
          probeQueued.set(false);
          probe();
        });
      } catch (RejectedExecutionException e) {
        probeQueued.set(false); // closing
      }
    }
  }

  /** A write failed on the storage: mark it failing. */
  void failed(StorageFaultException e) {
    Consumer<Boolean> tell;
    synchronized (this) {
      boolean was = failing;
      StorageFaultException.Kind before = was ? fault.kind() : null;
      fault = e;
      faults++;
      failing = true;
      if (was && before == e.kind()) {
        return;
      }
      if (was) {
        LOG.error("writes to the database still fail, now: {}", e.getMessage());
        return;
      }
      LOG.error("writes to the database fail: {}. Health says NOT_SERVING until a write probe succeeds (every"
          + " {} ms, --{})", e.getMessage(), intervalMillis, WRITE_PROBE_MS.name());
      tell = listener;
    }
    tell.accept(false);
  }

  /** True while writes are marked failing. */
  boolean failing() {
    return failing;
  }

  /** Stops probing; waits briefly for a probe under way. */
  @Override
  public void close() {
    prober.shutdownNow();
    try {
      prober.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void probe() {
    long faultsBefore;
    synchronized (this) {
      faultsBefore = faults;
    }
    try {
      store.probeWrite();
    } catch (StorageFaultException e) {
      failed(e);
      return;
    } catch (RuntimeException e) {
      // Not the storage's fault (the store is closing, say); the next probe asks again. Never thrown:
      // a periodic task that throws is not run again.
      LOG.warn("the write probe failed: {}", String.valueOf(e));
      return;
    }
    probed(faultsBefore);
  }

  /** The probe succeeded: marks the storage writable, unless a write failed while it ran. */
  private void probed(long faultsBefore) {
    Consumer<Boolean> tell;
    synchronized (this) {
      if (!failing || faults != faultsBefore) {
        return;
      }
      failing = false;
      fault = null;
      LOG.info("writes to the database succeed again; health says SERVING");
      tell = listener;
    }
    tell.accept(true);
  }
}
