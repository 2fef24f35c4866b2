package dev.feedstore.server.testing;

import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A store that counts its transactions, to show which work reads storage, and the calls its write
 * transactions make to the views of a transaction ({@code tx.blocks().claimPositions(...)} counts as
 * {@code "BlockLog.claimPositions"}, named by the interface that declares the method), to show how many statements some work needed. Thread-safe. Closing it
 * closes the store it wraps.
 */
public final class CountingFeedStore implements FeedStore {
  private final FeedStore store;
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong probes = new AtomicLong();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Set<Thread> writers = ConcurrentHashMap.newKeySet();
  private volatile Runnable beforeRead = () -> { };
  private volatile Runnable beforeWrite = () -> { };

  public CountingFeedStore(FeedStore store) {
    this.store = store;
  }

  public long reads() {
    return reads.get();
  }

  public long writes() {
    return writes.get();
  }

  /** Write probes begun so far (not counted as writes). */
  public long probes() {
    return probes.get();
  }

  /** Calls made so far by write transactions to a method of the views, as {@code Interface.method}. */
  public int calls(String method) {
    AtomicInteger count = calls.get(method);
    return count == null ? 0 : count.get();
  }

  /** The threads that ran write transactions so far. */
  public Set<Thread> writers() {
    return Set.copyOf(writers);
  }

  /** Runs {@code hook} on the reading thread before each read transaction (to hold a reader). */
  public void beforeRead(Runnable hook) {
    beforeRead = hook;
  }

  /** Runs {@code hook} on the writing thread before each write transaction (to hold a writer). */
  public void beforeWrite(Runnable hook) {
    beforeWrite = hook;
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    reads.incrementAndGet();
    beforeRead.run();
    return store.read(work);
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    writes.incrementAndGet();
    writers.add(Thread.currentThread());
    beforeWrite.run();
    return store.write(tx -> work.run(counted(tx)));
  }

  /** Counted apart from writes: the server probes on its own schedule. */
  @Override
  public void probeWrite() {
    probes.incrementAndGet();
    store.probeWrite();
  }

  @Override
  public void close() {
    store.close();
  }

  private StoreTransaction counted(StoreTransaction tx) {
    return ViewCalls.watched(tx, (method, args) -> calls.computeIfAbsent(
        method.getDeclaringClass().getSimpleName() + "." + method.getName(), name -> new AtomicInteger()).incrementAndGet());
  }
}
