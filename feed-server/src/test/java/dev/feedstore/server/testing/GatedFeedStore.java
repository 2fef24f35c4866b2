package dev.feedstore.server.testing;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store whose next write can be held inside its transaction until the test lets it go, so that
 * appends arriving meanwhile queue behind it; it counts write transactions. Thread-safe. Closing it
 * closes the store it wraps.
 */
public final class GatedFeedStore implements FeedStore {
  private final FeedStore store;
  private final AtomicInteger writes = new AtomicInteger();
  /** The gate the next write takes, if any. */
  private final AtomicReference<CountDownLatch> nextGate = new AtomicReference<>();
  private final CountDownLatch gate = new CountDownLatch(1);
  private final CountDownLatch entered = new CountDownLatch(1);

  public GatedFeedStore(FeedStore store) {
    this.store = store;
  }

  /** The next write waits inside its transaction until {@link #open}. Once per store. */
  public void holdNextWrite() {
    nextGate.set(gate);
  }

  /** Waits until the held write is inside its transaction. */
  public void awaitHeld() throws InterruptedException {
    if (!entered.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("no write reached the gate within 30 s");
    }
  }

  /** Lets the held write go on. */
  public void open() {
    gate.countDown();
  }

  /** Write transactions begun so far. */
  public int writes() {
    return writes.get();
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    writes.incrementAndGet();
    CountDownLatch held = nextGate.getAndSet(null);
    return store.write(tx -> {
      T result = work.run(tx);
      if (held != null) {
        entered.countDown();
        try {
          if (!held.await(60, TimeUnit.SECONDS)) {
            throw new AssertionError("the held write was not let go within 60 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
      }
      return result;
    });
  }

  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  @Override
  public void close() {
    store.close();
  }
}
