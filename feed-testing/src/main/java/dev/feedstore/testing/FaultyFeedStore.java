package dev.feedstore.testing;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreTransaction;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store whose commits fail on demand, the way a full disk or an I/O error fails them: while
 * {@link #fail failing}, every write runs its work in the real transaction (so everything the work
 * does in memory happens) and then throws a {@link StorageFaultException} instead of committing, so
 * the real store rolls the transaction back; the write probe fails too. Reads pass through. For
 * schedules that must run the same way every time, where a real full disk would not (whether a
 * commit still fits depends on the WAL's size, which a background checkpoint changes).
 *
 * <p>Thread-safe. Closing it closes the store it wraps.
 */
public final class FaultyFeedStore implements FeedStore {
  private final FeedStore store;
  private final Path file;
  private final AtomicLong failedCommits = new AtomicLong();
  private volatile StorageFaultException.Kind failing;

  /** @param file the file the faults name */
  public FaultyFeedStore(FeedStore store, Path file) {
    this.store = Objects.requireNonNull(store, "store");
    this.file = Objects.requireNonNull(file, "file");
  }

  /** From now on every commit fails with {@code kind}, until {@link #heal}. */
  public void fail(StorageFaultException.Kind kind) {
    failing = Objects.requireNonNull(kind, "kind");
  }

  /** Commits succeed again. */
  public void heal() {
    failing = null;
  }

  /** How many commits failed so far (probes not counted). */
  public long failedCommits() {
    return failedCommits.get();
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    return store.write(failingAtCommit(work));
  }

  @Override
  public <T> T writeRelaxed(Work<? super StoreTransaction, T> work) {
    return store.writeRelaxed(failingAtCommit(work));
  }

  @Override
  public void probeWrite() {
    StorageFaultException.Kind kind = failing;
    if (kind != null) {
      throw fault(kind);
    }
    store.probeWrite();
  }

  @Override
  public void close() {
    store.close();
  }

  private <T> Work<StoreTransaction, T> failingAtCommit(Work<? super StoreTransaction, T> work) {
    return tx -> {
      T result = work.run(tx);
      StorageFaultException.Kind kind = failing;
      if (kind != null) {
        failedCommits.incrementAndGet();
        throw fault(kind);
      }
      return result;
    };
  }

  private StorageFaultException fault(StorageFaultException.Kind kind) {
    return new StorageFaultException(kind, file, "committing: a fault injected by the test", null);
  }
}
