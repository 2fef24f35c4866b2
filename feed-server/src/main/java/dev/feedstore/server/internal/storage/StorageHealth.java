package dev.feedstore.server.internal.storage;

import static dev.feedstore.server.settings.ServerSettings.WRITE_PROBE_MS;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.server.internal.monitoring.NamedThreads;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the server's storage takes writes and serves reads, as the transactions themselves and a
 * periodic write probe ({@link AuthorityStore#probeWrite}) find. Three states, each logged once when
 * it begins and handed to the listener (the health service):
 *
 * <ul>
 *   <li>Writes fail: a write failed on the storage (a full disk, a read-only file, an I/O error, an
 *       unreachable database). Only a probe ends it: a small write can commit on a full disk, in
 *       space the WAL already holds, while the next larger one cannot, and the probe checks for room
 *       as well. A write that commits meanwhile asks for a probe at once, so a recovery shows
 *       without waiting for the interval.
 *   <li>Reads fail: a read failed on the storage (an I/O error, an unreachable database). A probe
 *       that succeeds ends it too (it is a transaction on the same storage); a read that succeeds
 *       meanwhile asks for one at once.
 *   <li>Damaged: a read or a write found the store's content damaged ({@link
 *       StorageFaultException.Kind#CORRUPT}). This lasts for the life of the process: a damaged file
 *       does not heal while it is served, and a probe that does not touch the damaged pages would
 *       say otherwise. The operator restores the file and restarts, and the start-up check refuses
 *       the damaged one.
 * </ul>
 *
 * <p>Thread-safe. Owns the probe's thread, which {@link #close} stops; does not own the store.
 */
public final class StorageHealth implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("dev.feedstore.server");

  private final AuthorityStore<?> store;
  private final long intervalMillis;
  private final ScheduledExecutorService prober =
      Executors.newSingleThreadScheduledExecutor(new NamedThreads("feed-write-probe"));
  private final AtomicBoolean probeQueued = new AtomicBoolean();
  /** Guarded by this; null while writes succeed. */
  private StorageFaultException writeFault;
  /** Guarded by this; null while reads succeed. */
  private StorageFaultException readFault;
  /** Guarded by this; null unless the store was found damaged. */
  private StorageFaultException damage;
  /**
   * Guarded by this: storage faults seen so far, so that a probe that began before a transaction
   * failed does not mark the storage working after it.
   */
  private long faults;
  /** Guarded by this. */
  private Runnable listener = () -> {};
  /**
   * Read without the lock on every transaction, so that the common case costs one volatile read:
   * true while writes or reads are marked failing (damage aside, which no probe ends).
   */
  private volatile boolean recovering;

  public StorageHealth(AuthorityStore<?> store, long intervalMillis) {
    this.store = store;
    this.intervalMillis = intervalMillis;
  }

  /** Runs {@code value} after every change of {@link #takesWrites} or {@link #servesReads}. */
  public synchronized void listen(Runnable value) {
    listener = value;
  }

  /** Whether writes are expected to succeed: none failed on the storage since the last good probe. */
  public synchronized boolean takesWrites() {
    return writeFault == null && damage == null;
  }

  /** Whether reads are expected to succeed: none failed on the storage since the last good probe. */
  public synchronized boolean servesReads() {
    return readFault == null && damage == null;
  }

  /**
   * Runs the probe once, on the caller's thread, before the server starts. A full disk does not stop
   * the start: it marks writes failing, and the server serves reads until space is freed.
   *
   * @throws StorageFaultException if the storage cannot take writes for any other reason (a
   *     read-only file, an I/O error, a damaged file)
   */
  public void check() {
    try {
      store.probeWrite();
    } catch (StorageFaultException e) {
      if (e.kind() != StorageFaultException.Kind.FULL) {
        throw e;
      }
      writeFailed(e);
    }
  }

  /** Probes every {@code write-probe-ms} from now on. */
  public void start() {
    prober.scheduleWithFixedDelay(this::probe, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /** A transaction succeeded: if the storage is marked failing, probe now. */
  void succeeded() {
    if (recovering && probeQueued.compareAndSet(false, true)) {
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

  /** A write failed on the storage. */
  void writeFailed(StorageFaultException e) {
    failed(e, true);
  }

  /** A read failed on the storage. */
  void readFailed(StorageFaultException e) {
    failed(e, false);
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

  private void failed(StorageFaultException e, boolean write) {
    Runnable tell;
    synchronized (this) {
      faults++;
      if (damage != null) {
        return;
      }
      if (e.kind() == StorageFaultException.Kind.CORRUPT) {
        damage = e;
        LOG.error("{} of the database found it damaged: {}. Health says NOT_SERVING, for reads too, until the"
            + " server is restarted on a sound file: restore the last backup (the check at start refuses the damaged"
            + " file)", write ? "a write" : "a read", e.getMessage());
      } else if (!replaced(write, e)) {
        return;
      }
      recovering = writeFault != null || readFault != null;
      tell = listener;
    }
    tell.run();
  }

  /**
   * Records {@code e} as the fault of writes or of reads; returns whether that began a failure (so
   * that the listener is told), logging it once, or once more when its kind changes.
   */
  private boolean replaced(boolean write, StorageFaultException e) {
    StorageFaultException before = write ? writeFault : readFault;
    if (write) {
      writeFault = e;
    } else {
      readFault = e;
    }
    String what = write ? "writes to" : "reads of";
    if (before != null) {
      if (before.kind() != e.kind()) {
        LOG.error("{} the database still fail, now: {}", what, e.getMessage());
      }
      return false;
    }
    LOG.error("{} the database fail: {}. Health says NOT_SERVING{} until a write probe succeeds (every {} ms, --{})",
        what, e.getMessage(), write ? "" : ", for reads too,", intervalMillis, WRITE_PROBE_MS.name());
    return true;
  }

  private void probe() {
    long faultsBefore;
    synchronized (this) {
      faultsBefore = faults;
    }
    try {
      store.probeWrite();
    } catch (StorageFaultException e) {
      writeFailed(e);
      return;
    } catch (RuntimeException e) {
      // Not the storage's fault (the store is closing, say); the next probe asks again. Never thrown:
      // a periodic task that throws is not run again.
      LOG.warn("the write probe failed: {}", String.valueOf(e));
      return;
    }
    probed(faultsBefore);
  }

  /** The probe succeeded: marks writes and reads working, unless a transaction failed while it ran. */
  private void probed(long faultsBefore) {
    Runnable tell;
    synchronized (this) {
      if (!recovering || faults != faultsBefore) {
        return;
      }
      recovering = false;
      writeFault = null;
      readFault = null;
      if (damage != null) {
        return;
      }
      LOG.info("reads and writes of the database succeed again; health says SERVING");
      tell = listener;
    }
    tell.run();
  }
}
