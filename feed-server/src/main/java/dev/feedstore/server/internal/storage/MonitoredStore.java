package dev.feedstore.server.internal.storage;

import dev.feedstore.core.store.AuthorityStore;
import dev.feedstore.core.store.AuthorityTransaction;
import dev.feedstore.core.store.SpaceAppend;
import dev.feedstore.core.store.StorageFaultException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server's store, telling {@link StorageHealth} how every transaction ended: a storage fault
 * marks writes or reads failing (or the store damaged), a success lets it probe for a recovery. Does
 * not own the store: closing it does nothing. Thread-safe, like the store.
 *
 * @param <X> the type of the store's transactions
 */
public final class MonitoredStore<X extends AuthorityTransaction> implements AuthorityStore<X> {
  private final AuthorityStore<X> store;
  private final StorageHealth health;

  private MonitoredStore(AuthorityStore<X> store, StorageHealth health) {
    this.store = store;
    this.health = health;
  }

  /** {@code store}, monitored by {@code health}. */
  public static <X extends AuthorityTransaction> MonitoredStore<X> of(AuthorityStore<X> store, StorageHealth health) {
    return new MonitoredStore<>(store, health);
  }

  @Override
  public <T> T read(Work<? super X, T> work) {
    return observed(() -> store.read(work), false);
  }

  @Override
  public <T> T write(Work<? super X, T> work) {
    return observed(() -> store.write(work), true);
  }

  @Override
  public Optional<List<SpaceAppend.Stored>> appendAllNew(List<SpaceAppend> appends,
      long feedsPerSpace) {
    return observed(() -> store.appendAllNew(appends, feedsPerSpace), true);
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
  public void follow(dev.feedstore.core.SpaceId spaceId) {
    store.follow(spaceId);
  }

  @Override
  public void unfollow(dev.feedstore.core.SpaceId spaceId) {
    store.unfollow(spaceId);
  }

  @Override
  public void close() {
    // The caller of the server owns the store.
  }

  private <T> T observed(Supplier<T> transaction, boolean write) {
    try {
      T result = transaction.get();
      health.succeeded();
      return result;
    } catch (StorageFaultException e) {
      if (write) {
        health.writeFailed(e);
      } else {
        health.readFailed(e);
      }
      throw e;
    }
  }
}
