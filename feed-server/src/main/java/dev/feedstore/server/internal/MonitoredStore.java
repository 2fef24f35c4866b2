package dev.feedstore.server.internal;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.StorageFaultException;
import java.util.function.Supplier;

/**
 * The server's store, telling {@link StorageHealth} how every write ended: a storage fault marks
 * the storage failing, a commit lets it probe for a recovery. Reads pass through. Does not own the
 * store: closing it does nothing. Thread-safe, like the store.
 *
 * @param <X> the type of the store's transactions
 */
final class MonitoredStore<X extends AuthorityTransaction> implements AuthorityStore<X> {
  private final AuthorityStore<X> store;
  private final StorageHealth health;

  private MonitoredStore(AuthorityStore<X> store, StorageHealth health) {
    this.store = store;
    this.health = health;
  }

  /** {@code store}, monitored by {@code health}. */
  static <X extends AuthorityTransaction> MonitoredStore<X> of(AuthorityStore<X> store, StorageHealth health) {
    return new MonitoredStore<>(store, health);
  }

  @Override
  public <T> T read(Work<? super X, T> work) {
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super X, T> work) {
    return observed(() -> store.write(work));
  }

  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  @Override
  public void listen(dev.feedstore.core.store.CommitListener listener) {
    store.listen(listener);
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
