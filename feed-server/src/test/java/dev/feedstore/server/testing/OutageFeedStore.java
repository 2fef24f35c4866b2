package dev.feedstore.server.testing;

import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CommitListener;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StorageFaultException;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store shared with other processes whose database connection comes and goes, as a test plays it:
 * the test tells the server that commits may have been missed ({@link #missCommits}, what a shared
 * store does when it hears other processes again after a lost connection), and makes the reads of
 * chosen spaces fail as an unreachable database's do ({@link #failReads}) or wait inside their
 * transaction until it lets them go ({@link #holdReads}). A read touches a space when it passes its
 * id to a view of the transaction ({@code tx.blocks().maxPosition(space)}). Thread-safe. Closing it
 * closes the store it wraps.
 */
public final class OutageFeedStore implements FeedStore {
  private final FeedStore store;
  private final Map<SpaceId, Boolean> failing = new ConcurrentHashMap<>();
  private final Map<SpaceId, CountDownLatch> held = new ConcurrentHashMap<>();
  private final Map<SpaceId, AtomicInteger> refused = new ConcurrentHashMap<>();
  private final CountDownLatch holding = new CountDownLatch(1);
  private volatile CommitListener listener;

  public OutageFeedStore(FeedStore store) {
    this.store = store;
  }

  /** Tells the server's listener that commits may have been missed, on the calling thread. */
  public void missCommits() {
    CommitListener current = listener;
    if (current == null) {
      throw new AssertionError("no server listens to this store");
    }
    current.missedCommits();
  }

  /** From now on, every read that touches {@code space} fails with an UNREACHABLE storage fault. */
  public void failReads(SpaceId space) {
    failing.put(space, true);
  }

  /** Reads of {@code space} succeed again. */
  public void healReads(SpaceId space) {
    failing.remove(space);
  }

  /** How many reads touching {@code space} failed so far. */
  public int failedReads(SpaceId space) {
    AtomicInteger count = refused.get(space);
    return count == null ? 0 : count.get();
  }

  /**
   * From now on, reads that touch {@code space} wait inside their transaction until the returned
   * latch is opened.
   */
  public CountDownLatch holdReads(SpaceId space) {
    return held.computeIfAbsent(space, s -> new CountDownLatch(1));
  }

  /** Waits until a read is held by {@link #holdReads}. */
  public void awaitHeldRead() {
    Await.open("a read of a held space", Duration.ofSeconds(30), holding);
  }

  @Override
  public void listen(CommitListener value) {
    listener = value;
    store.listen(value);
  }

  @Override
  public void follow(SpaceId spaceId) {
    store.follow(spaceId);
  }

  @Override
  public void unfollow(SpaceId spaceId) {
    store.unfollow(spaceId);
  }

  @Override
  public <T> T read(Work<? super StoreTransaction, T> work) {
    return store.read(tx -> work.run(ViewCalls.watched(tx, (method, args) -> touch(args))));
  }

  @Override
  public <T> T write(Work<? super StoreTransaction, T> work) {
    return store.write(work);
  }

  @Override
  public <T> T writeRelaxed(Work<? super StoreTransaction, T> work) {
    return store.writeRelaxed(work);
  }

  @Override
  public void probeWrite() {
    store.probeWrite();
  }

  @Override
  public void close() {
    store.close();
  }

  /** Fails or holds a call that names a failing or held space. */
  private void touch(Object[] args) {
    if (args == null) {
      return;
    }
    for (Object arg : args) {
      if (!(arg instanceof SpaceId space)) {
        continue;
      }
      CountDownLatch gate = held.get(space);
      if (gate != null) {
        holding.countDown();
        Await.open("the test lets the held read go", Duration.ofSeconds(60), gate);
      }
      if (failing.containsKey(space)) {
        refused.computeIfAbsent(space, s -> new AtomicInteger()).incrementAndGet();
        throw new StorageFaultException(StorageFaultException.Kind.UNREACHABLE, Path.of("feeds"),
            "the database cannot be reached (a test's outage)", null);
      }
    }
  }
}
