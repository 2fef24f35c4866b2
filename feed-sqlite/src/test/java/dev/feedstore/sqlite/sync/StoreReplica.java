package dev.feedstore.sqlite.sync;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.Block;
import dev.feedstore.core.BlockData;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.store.SyncState;
import dev.feedstore.core.sync.SpaceSync;
import dev.feedstore.core.sync.SyncListener;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.DatabaseFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A replica made of a SQLite file and feed-core's sync logic alone, without the client library: a
 * {@link SpaceSync} of one space over the file, feeds followed with full history, and local appends
 * made as an application's are (the next sequence of the feed, linked to the feed's last block,
 * unpositioned). The file can be copied aside and put back, as a laptop restored from a backup.
 * Not thread-safe.
 */
final class StoreReplica implements AutoCloseable {
  private final Path file;
  private final ActorId actor;
  private final SpaceId space;
  private final int pullLimit;
  private SqliteFeedStore store;
  private SpaceSync sync;
  private long clock = 1_000;

  /** Opens (or creates) {@code dir/ACTOR.db}; pulls take at most {@code pullLimit} blocks a page. */
  StoreReplica(Path dir, String actor, SpaceId space, int pullLimit) {
    this.file = dir.resolve(actor + ".db");
    this.actor = ActorId.of(actor);
    this.space = space;
    this.pullLimit = pullLimit;
    open();
  }

  private void open() {
    store = SqliteFeedStore.open(file);
    sync = new SpaceSync(space, store, SyncListener.NONE, pullLimit, SpaceSync.DEFAULT_PUSH_LIMIT);
  }

  /** The sync of the space; a new one after {@link #restoreFrom}. */
  SpaceSync sync() {
    return sync;
  }

  /** A new feed, replicated with full history. */
  FeedId createFeed() {
    FeedId feed = FeedId.generate();
    follow(feed);
    return feed;
  }

  /** Replicates {@code feed} (another replica's, or a new one) with full history. */
  void follow(FeedId feed) {
    store.write(tx -> {
      tx.feeds().create(space, feed, Optional.empty());
      tx.replication().setFeed(space, feed, Replication.fullHistory());
      return null;
    });
    sync.invalidate();
  }

  /** Appends a block per element of {@code data} to {@code feed}, in order; returns their keys. */
  List<BlockKey> append(FeedId feed, List<String> data) {
    return store.write(tx -> {
      Optional<Block> last = tx.blocks().lastInFeed(space, feed);
      Sequence sequence = Sequence.after(tx.blocks().maxSequence(space, feed).orElse(null));
      List<BlockKey> keys = new ArrayList<>();
      for (String text : data) {
        BlockKey key = new BlockKey(feed, actor, sequence);
        Block block = Block.unpositioned(key, last.map(b -> Predecessor.of(b.key())), clock++, BlockData.utf8(text));
        tx.blocks().insertLocal(space, block);
        keys.add(key);
        last = Optional.of(block);
        sequence = sequence.next();
      }
      return keys;
    });
  }

  /** The blocks of {@code feed} the replica holds, in feed order. */
  List<Block> read(FeedId feed) {
    return store.read(tx -> tx.blocks().feed(space, feed));
  }

  /** The block the replica holds under {@code key}. */
  Block find(BlockKey key) {
    return store.read(tx -> tx.blocks().find(space, key)).orElseThrow();
  }

  SyncState state() {
    return store.read(tx -> tx.syncStates().get(space));
  }

  /** Records {@code state} as the space's sync state, as a replica made by an older version may hold it. */
  void putState(SyncState state) {
    store.write(tx -> {
      tx.syncStates().put(space, state);
      return null;
    });
  }

  /** A consistent copy of the file as it is now, at {@code copy}. */
  Path backupTo(Path copy) {
    store.backupTo(copy);
    return copy;
  }

  /** Closes the file, puts {@code copy} in its place and opens it again, with a new sync. */
  void restoreFrom(Path copy) {
    store.close();
    DatabaseFiles.replace(file, copy);
    open();
  }

  @Override
  public void close() {
    store.close();
  }

  @Override
  public String toString() {
    return actor.value();
  }
}
