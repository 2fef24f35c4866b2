package dev.feedstore.server.internal.spaces;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live tail of one space: the highest committed position, and, while the space has watchers,
 * the most recently committed blocks, converted once for all of them. The authority publishes each
 * committed range here, in commit order; watchers are signalled and read what they have not sent
 * yet. A watcher that fell behind the recent blocks reads storage instead ({@link Slice#behind()}),
 * so the tail never holds more than its bounds, whatever the watchers do.
 *
 * <p>Thread-safe. Publishing and reading take a short lock; signalling runs outside it.
 */
public final class SpaceTail {
  /** Told of what the tail learns. Must not block. */
  public interface Watcher {
    /** New blocks are committed. */
    void signal();

    /**
     * The space's history went back ({@link #resync}): blocks this process had seen are gone or were
     * replaced, and {@code highest} is the space's highest position now. By default, a {@link #signal}.
     */
    default void historyWentBack(long highest) {
      signal();
    }
  }

  /**
   * What a watcher reads after its position {@code after}.
   *
   * @param entries the recent blocks after it, in position order; empty when none
   * @param committed the highest committed position when read
   * @param behind true when blocks after {@code after} are committed but no longer (or not) held
   *     here: read them from storage
   */
  public record Slice(List<TailEntry> entries, long committed, boolean behind) {}

  private final int maxBlocks;
  private final long maxBytes;
  private final Object lock = new Object();
  private final Set<Watcher> watchers = ConcurrentHashMap.newKeySet();
  /** Guarded by lock for writes; read without it. */
  private volatile long committed;
  /**
   * Guarded by lock; null while the space has no watcher. When not empty it ends at {@link
   * #committed}.
   */
  private RecentBlocks recent;
  /** Pages read from storage by streams behind {@link #recent}. */
  private final SharedPages pages;
  /**
   * Written under lock, read without it: the highest position whose block was recorded or sent with
   * its history chain; 0 if none.
   */
  private volatile long chainedAt;
  /** Guarded by lock: the history chain at {@link #chainedAt}. */
  private OptionalLong chain = OptionalLong.empty();

  public SpaceTail(long committed, int maxBlocks, long maxBytes) {
    this(committed, maxBlocks, maxBytes, new SharedPages(SHARED_PAGES.defaultValue(),
        new SharedPageBudget(SHARED_PAGES_BYTES.defaultValue())));
  }

  /** @param pages where the pages read from storage are kept for streams behind */
  SpaceTail(long committed, int maxBlocks, long maxBytes, SharedPages pages) {
    this.committed = committed;
    this.maxBlocks = maxBlocks;
    this.maxBytes = maxBytes;
    this.pages = pages;
  }

  /** The highest position committed in the space, as published. */
  public long committed() {
    return committed;
  }

  /** Pages of the whole space read from storage, for the streams that fell behind the recent blocks. */
  public SharedPages pages() {
    return pages;
  }

  public int watcherCount() {
    return watchers.size();
  }

  /** Registers a watcher; from now on it is signalled after every publish. */
  public void register(Watcher watcher) {
    synchronized (lock) {
      watchers.add(watcher);
      if (recent == null) {
        recent = new RecentBlocks(maxBlocks, maxBytes);
      }
    }
  }

  /** Unregisters a watcher; the recent blocks are dropped with the last one. Idempotent. */
  public void unregister(Watcher watcher) {
    synchronized (lock) {
      if (watchers.remove(watcher) && watchers.isEmpty()) {
        recent = null;
        pages.clear();
      }
    }
  }

  /**
   * Publishes blocks that just committed, with consecutive positions in ascending order, and
   * signals every watcher: {@link #record} then {@link #signalWatchers}.
   */
  void publish(List<Block> blocks, Map<FeedId, Optional<Namespace>> namespaces, long highest) {
    record(blocks, null, namespaces, highest);
    signalWatchers();
  }

  /**
   * Records blocks that just committed, with consecutive positions in ascending order, without
   * signalling: the authority records each committed group in commit order, before the next group
   * is formed, and signals after releasing the group's callers, so that the next group does not wait
   * while a thousand watchers are woken.
   * {@code highest} is the space's highest position after the commit (at least the last block's); a
   * jump past what was recorded before (after a failure the authority could not record) drops the
   * recent blocks, so that watchers read storage. {@code chains} holds the history chain of each
   * block, in the same order, or is null.
   */
  public void record(List<Block> blocks, long[] chains, Map<FeedId, Optional<Namespace>> namespaces, long highest) {
    synchronized (lock) {
      if (recent != null) {
        for (int i = 0; i < blocks.size(); i++) {
          Block block = blocks.get(i);
          long position = block.position().value();
          if (position <= committed) {
            continue;
          }
          if (position != committed + 1) {
            recent.clear(); // a gap: what is held would no longer end at the committed position
            pages.clear();
          }
          recent.add(TailEntry.of(recent.newest(), block, namespaces.getOrDefault(block.feedId(), Optional.empty()),
              chains == null ? OptionalLong.empty() : OptionalLong.of(chains[i])));
          committed = position;
          if (chains != null) {
            chained(position, chains[i]);
          }
        }
        if (highest > committed) {
          recent.clear();
          pages.clear();
        }
      }
      committed = Math.max(committed, highest);
    }
  }

  /**
   * A stream sent the block at {@code position}, whose history chain is {@code sentChain}: what a
   * later {@link #resync} checks the store's history against, when it is the highest so far.
   */
  public void sent(long position, long sentChain) {
    if (position <= chainedAt) { // read without the lock: a stale value only takes the lock
      return;
    }
    synchronized (lock) {
      chained(position, sentChain);
    }
  }

  /** Guarded by lock. */
  private void chained(long position, long positionChain) {
    if (position > chainedAt) {
      chainedAt = position;
      chain = OptionalLong.of(positionChain);
    }
  }

  /** What this process knows of the space's history now, for a {@link #resync} to check the store against. */
  public KnownHistory known() {
    synchronized (lock) {
      return new KnownHistory(committed, chainedAt, chain);
    }
  }

  /**
   * Sets the highest committed position to what the store holds now, read again after commits may
   * have been missed ({@code stored}), after this tail knew {@code known}. Forward when other
   * processes committed meanwhile, as {@link #record} moves it (so an append of this process
   * recorded while the store was read is never undone). Back when the store lost history this
   * process had seen ({@link KnownHistory#lostIn}), which only a restore from a backup or a
   * failover that lost commits does: then the recent blocks and pages are dropped, the committed
   * position is the store's, and every watcher is told ({@link Watcher#historyWentBack}). Signals no
   * one otherwise: the caller signals after.
   *
   * @return true when the history went back
   */
  public boolean resync(KnownHistory known, KnownHistory.Stored stored) {
    if (!known.lostIn(stored)) {
      record(List.of(), null, Map.of(), stored.highest());
      return false;
    }
    synchronized (lock) {
      if (recent != null) {
        recent.clear();
      }
      pages.clear();
      committed = stored.highest();
      chainedAt = 0;
      chain = OptionalLong.empty();
    }
    for (Watcher watcher : watchers) {
      watcher.historyWentBack(stored.highest());
    }
    return true;
  }

  /** Signals every watcher that blocks were recorded. Never blocks. */
  public void signalWatchers() {
    for (Watcher watcher : watchers) {
      watcher.signal();
    }
  }

  /**
   * The recent blocks after position {@code after}: at most {@code maxBlocks}, and at most {@code
   * maxBytes} unless one block alone is larger.
   */
  public Slice read(long after, int maxBlocks, long maxBytes) {
    synchronized (lock) {
      long now = committed;
      if (after >= now) {
        return new Slice(List.of(), now, false);
      }
      if (recent == null || recent.isEmpty() || recent.first() > after + 1) {
        return new Slice(List.of(), now, true);
      }
      return new Slice(recent.after(after, maxBlocks, maxBytes), now, false);
    }
  }
}
