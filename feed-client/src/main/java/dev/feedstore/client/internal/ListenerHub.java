package dev.feedstore.client.internal;

import dev.feedstore.client.FeedListener;
import dev.feedstore.client.FeedUpdate;
import dev.feedstore.client.Registration;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.FeedOrder;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.CorruptBlockException;
import dev.feedstore.core.store.FeedStore;
import dev.feedstore.core.store.StoreTransaction;
import dev.feedstore.core.sync.Changes;
import dev.feedstore.core.sync.SyncListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells listeners about changed feeds. Changes are recorded per registration and delivered on the
 * replica's listener thread, in order; changes that arrive while an update is being prepared are merged into the next
 * one. An update reads only the blocks that changed (by key), or the whole feed when it changed
 * wholesale, so its cost follows the change, not the length of the feed. A block found corrupt
 * while reading is handed to the hub's handler (which sets it aside) and the read runs again, so
 * listeners are told the feed without it, and again when it comes back. Thread-safe.
 */
public final class ListenerHub implements SyncListener, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ListenerHub.class);

  private final FeedStore store;
  private final Consumer<CorruptBlockException> onCorrupt;
  private final ListenerThread executor;
  private final List<Entry> entries = new CopyOnWriteArrayList<>();

  /**
   * @param onCorrupt takes a block found corrupt out of the store's feeds (a read meeting it again
   *     fails the update)
   */
  public ListenerHub(FeedStore store, Consumer<CorruptBlockException> onCorrupt, ListenerThread thread) {
    this.store = store;
    this.onCorrupt = onCorrupt;
    this.executor = thread;
  }

  /** Registers a listener and schedules its first update with every feed in scope. */
  public Registration register(SpaceId space, Scope scope, FeedListener listener) {
    Entry entry = new Entry(space, scope, listener);
    entries.add(entry);
    executor.execute(entry::deliverInitial);
    return entry;
  }

  @Override
  public void feedsChanged(SpaceId space, Changes changes) {
    for (Entry entry : entries) {
      if (entry.space.equals(space)) {
        entry.changed(changes);
      }
    }
  }

  /** Reads with {@code work}; each corrupt block it meets is handed to the handler, then it reads again. */
  private <T> T read(FeedStore.Work<? super StoreTransaction, T> work) {
    BlockKey previous = null;
    while (true) {
      try {
        return store.read(work);
      } catch (CorruptBlockException e) {
        if (e.key().equals(previous)) {
          throw e; // the handler did not take it out
        }
        previous = e.key();
        onCorrupt.accept(e);
      }
    }
  }

  /** Forgets every registration; the listener thread is its owner's to stop. */
  @Override
  public void close() {
    entries.clear();
  }

  /** One registration. Its pending changes are guarded by {@code pending}. */
  private final class Entry implements Registration {
    final SpaceId space;
    final Scope scope;
    final FeedListener listener;
    /** Per feed, the keys changed since the last update was prepared. */
    private final Map<FeedId, Set<BlockKey>> pending = new HashMap<>();
    /** Guarded by pending: feeds changed wholesale since the last update was prepared. */
    private final Set<FeedId> pendingWhole = new HashSet<>();
    private boolean scheduled;
    private volatile boolean closed;

    Entry(SpaceId space, Scope scope, FeedListener listener) {
      this.space = space;
      this.scope = scope;
      this.listener = listener;
    }

    void changed(Changes changes) {
      synchronized (pending) {
        changes.blocks().forEach((feed, keys) -> pending.computeIfAbsent(feed, f -> new HashSet<>()).addAll(keys));
        pendingWhole.addAll(changes.rewritten());
        if (scheduled) {
          return;
        }
        scheduled = true;
      }
      executor.execute(this::deliverChanges);
    }

    void deliverInitial() {
      if (closed) {
        return;
      }
      Map<FeedId, List<Block>> content = read(tx -> {
        Map<FeedId, List<Block>> result = new LinkedHashMap<>();
        for (FeedInfo info : tx.feeds().list(space, Optional.empty())) {
          if (scope.covers(info.feedId(), info.namespace())) {
            result.put(info.feedId(), tx.blocks().feed(space, info.feedId()));
          }
        }
        return result;
      });
      deliver(FeedUpdate.ofInitial(space, content));
    }

    void deliverChanges() {
      Map<FeedId, Set<BlockKey>> keys;
      Set<FeedId> whole;
      synchronized (pending) {
        keys = new HashMap<>(pending);
        whole = new HashSet<>(pendingWhole);
        pending.clear();
        pendingWhole.clear();
        scheduled = false;
      }
      if (closed) {
        return;
      }
      Set<FeedId> replaced = new HashSet<>();
      Map<FeedId, List<Block>> changes = read(tx -> {
        Map<FeedId, List<Block>> result = new LinkedHashMap<>();
        Set<FeedId> feeds = new HashSet<>(keys.keySet());
        feeds.addAll(whole);
        Map<FeedId, Optional<Namespace>> namespaces = tx.feeds().namespaces(space, feeds);
        for (FeedId feed : feeds) {
          Optional<Namespace> namespace = namespaces.get(feed);
          if (namespace == null || !scope.covers(feed, namespace)) {
            continue;
          }
          if (whole.contains(feed)) {
            result.put(feed, tx.blocks().feed(space, feed));
            replaced.add(feed);
          } else {
            List<Block> blocks = new ArrayList<>(tx.blocks().findAll(space, keys.get(feed)).values());
            blocks.sort(FeedOrder.COMPARATOR);
            result.put(feed, blocks);
          }
        }
        return result;
      });
      if (!changes.isEmpty()) {
        Set<FeedId> feeds = Set.copyOf(changes.keySet());
        deliver(FeedUpdate.of(space, changes, replaced, () -> read(tx -> {
          Map<FeedId, List<Block>> content = new LinkedHashMap<>();
          for (FeedId feed : feeds) {
            content.put(feed, tx.blocks().feed(space, feed));
          }
          return content;
        })));
      }
    }

    private void deliver(FeedUpdate update) {
      if (closed) {
        return;
      }
      try {
        listener.onUpdate(update);
      } catch (RuntimeException e) {
        log.warn("feed listener for {} threw; it stays registered", space, e);
      }
    }

    @Override
    public void close() {
      closed = true;
      entries.remove(this);
    }
  }
}
