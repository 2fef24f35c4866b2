package dev.feedstore.server.internal;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StorageFaultException;
import java.util.function.Supplier;

/**
 * The server's store, telling {@link StorageHealth} how every write ended: a storage fault marks
 * the storage failing, a commit lets it probe for a recovery. Reads pass through. Does not own the
 * store: closing it does nothing. Thread-safe, like the store.
 */
final class MonitoredStore implements FeedStore {
  private final FeedStore store;
  private final StorageHealth health;

  MonitoredStore(FeedStore store, StorageHealth health) {
    this.store = store;
    this.health = health;
  }

  @Override
  public <T> T read(Work<T> work) {
    return store.read(work);
  }

  @Override
  public <T> T write(Work<T> work) {
    return observed(() -> store.write(work));
  }

  @Override
  public <T> T writeRelaxed(Work<T> work) {
    return observed(() -> store.writeRelaxed(work));
  }

  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  @Override
  public void close() {
    // The caller of the server owns the store.
  }

  private <T> T observed(Supplier<T> write) {
    try {
      T result = write.get();
      health.wrote();
      return result;
    } catch (StorageFaultException e) {
      health.failed(e);
      throw e;
    }
  }
}
