package dev.feedstore.server.testing;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import java.util.concurrent.atomic.AtomicLong;

/** A store that counts its transactions, to show which work reads storage. Thread-safe. */
public final class CountingFeedStore implements FeedStore {
  private final FeedStore store;
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();

  public CountingFeedStore(FeedStore store) {
    this.store = store;
  }

  public long reads() {
    return reads.get();
  }

  public long writes() {
    return writes.get();
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    reads.incrementAndGet();
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    writes.incrementAndGet();
    return store.write(work);
  }

  /** Not counted: the server probes on its own schedule. */
  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  @Override
  public void close() {
    store.close();
  }
}
