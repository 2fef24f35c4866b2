package dev.feedstore.testing;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.Authority;
import dev.feedstore.core.sync.PullPage;
import dev.feedstore.core.sync.PullRequest;
import dev.feedstore.core.sync.SequenceConflictException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A position authority held in memory, for tests of the replica's sync logic that need no server:
 * {@link #append} and {@link #pull} answer as the wire contract says an authority does, and the
 * test moves the authority's store the way operators and accidents do: {@link #snapshot} and
 * {@link #restore} (a rollback: the same token, older data), {@link #wipe} (a swap: a new token, no
 * data).
 *
 * <p>What it answers, per space:
 *
 * <ul>
 *   <li>An append is all or nothing. A key held with the same content keeps its position; a key held
 *       with other content fails the whole append with a {@link SequenceConflictException} naming
 *       every such key; new blocks take the next positions in request order, and the history chain
 *       ({@link HistoryChain}) is extended at each. A new feed takes the append's namespace.
 *   <li>A pull returns the blocks of its scope after the cursor in position order, at most its
 *       limit, with whether more follow; the space's highest position; the key of the block at the
 *       cursor (of any feed) and the chain there; the chain at the last block; and the namespaces of
 *       the feeds in the answer. A pull that expects another token than the space's is answered from
 *       the start, with the space's token.
 *   <li>The token of a space is derived from a secret of the store ({@link ServerToken#derive}), so
 *       it is the same in every answer until a {@link #wipe} makes a new store.
 * </ul>
 *
 * <p>It keeps every block (no floor, no compaction), stamps no receive times, and refuses reads
 * from a start time. Thread-safe: every call holds its monitor.
 */
public final class MemoryAuthority implements Authority {
  private Store store = new Store(1);

  /** A copy of the authority's store at one moment, for {@link #restore}. Immutable. */
  public static final class Snapshot {
    private final Store store;

    private Snapshot(Store store) {
      this.store = store;
    }
  }

  @Override
  public synchronized AppendReply append(SpaceId spaceId, Optional<Namespace> namespace, List<Block> blocks) {
    Space space = store.space(spaceId);
    List<BlockKey> conflicts = new ArrayList<>();
    Map<BlockKey, Block> request = new HashMap<>();
    for (Block block : blocks) {
      if (block.isPositioned()) {
        throw new IllegalArgumentException("an appended block carries no position; " + block.key() + " has "
            + block.position());
      }
      Block held = space.byKey.getOrDefault(block.key(), request.get(block.key()));
      if (held != null && !held.sameContentAs(block)) {
        conflicts.add(block.key());
      }
      request.putIfAbsent(block.key(), block);
    }
    if (!conflicts.isEmpty()) {
      throw new SequenceConflictException(conflicts, "the authority holds " + conflicts
          + " with other content; nothing was written");
    }
    List<Position> positions = new ArrayList<>(blocks.size());
    for (Block block : blocks) {
      Block held = space.byKey.get(block.key());
      if (held == null) {
        space.feeds.putIfAbsent(block.feedId(), namespace);
        held = space.add(block);
      }
      positions.add(held.position());
    }
    return new AppendReply(positions, store.token(spaceId));
  }

  /**
   * {@inheritDoc}
   *
   * @throws UnsupportedOperationException for a read from a start time
   */
  @Override
  public synchronized PullPage pull(PullRequest request) {
    if (request.startTime().isPresent()) {
      throw new UnsupportedOperationException("MemoryAuthority keeps no receive times: it cannot read space "
          + request.spaceId() + " from start time " + request.startTime().getAsLong());
    }
    ServerToken token = store.token(request.spaceId());
    Space space = store.space(request.spaceId());
    boolean otherStore = request.expectedServerToken().map(expected -> !expected.equals(token)).orElse(false);
    Position cursor = otherStore ? Position.NONE : request.cursor();
    List<Block> blocks = new ArrayList<>();
    boolean hasMore = false;
    for (Block block : space.byPosition.tailMap(cursor.value(), false).values()) {
      if (!request.scope().covers(block.feedId(), space.feeds.get(block.feedId()))) {
        continue;
      }
      if (blocks.size() == request.limit()) {
        hasMore = true;
        break;
      }
      blocks.add(block);
    }
    Map<FeedId, Namespace> namespaces = new LinkedHashMap<>();
    blocks.forEach(block -> space.feeds.get(block.feedId()).ifPresent(ns -> namespaces.put(block.feedId(), ns)));
    Optional<BlockKey> cursorBlock = Optional.ofNullable(space.byPosition.get(cursor.value())).map(Block::key);
    OptionalLong lastChain = blocks.isEmpty()
        ? OptionalLong.empty()
        : space.chainAt(blocks.get(blocks.size() - 1).position());
    return PullPage.ofQuery(blocks, hasMore, space.maxPosition(), cursorBlock, token, namespaces,
        space.chainAt(cursor), lastChain, Position.NONE);
  }

  /** A copy of everything the authority holds now. */
  public synchronized Snapshot snapshot() {
    return new Snapshot(store.copy());
  }

  /**
   * Puts back what the authority held at {@code snapshot}, as a restore from a backup does: the same
   * tokens, and every block acknowledged since is gone; its positions will be handed out again.
   */
  public synchronized void restore(Snapshot snapshot) {
    store = snapshot.store.copy();
  }

  /** Replaces the store with an empty one, as a wiped or replaced store is: every space has a new token. */
  public synchronized void wipe() {
    store = new Store(store.generation + 1);
  }

  /** Every block of {@code spaceId}, by position. */
  public synchronized List<Block> blocks(SpaceId spaceId) {
    return List.copyOf(store.space(spaceId).byPosition.values());
  }

  /** The token of {@code spaceId} in every answer until a {@link #wipe}. */
  public synchronized ServerToken token(SpaceId spaceId) {
    return store.token(spaceId);
  }

  /** One store: a token secret and the spaces. Not thread-safe. */
  private static final class Store {
    final long generation;
    final Map<SpaceId, Space> spaces = new HashMap<>();

    Store(long generation) {
      this.generation = generation;
    }

    Space space(SpaceId spaceId) {
      return spaces.computeIfAbsent(spaceId, id -> new Space());
    }

    ServerToken token(SpaceId spaceId) {
      byte[] secret = ByteBuffer.allocate(16).putLong(0x6d656d6f7279L).putLong(generation).array();
      return ServerToken.derive(secret, spaceId);
    }

    Store copy() {
      Store copy = new Store(generation);
      spaces.forEach((id, space) -> copy.spaces.put(id, space.copy()));
      return copy;
    }
  }

  /**
   * One space of a store: its blocks by position and by key, the chain at each position, its feeds.
   * Not thread-safe.
   */
  private static final class Space {
    final TreeMap<Long, Block> byPosition = new TreeMap<>();
    final Map<BlockKey, Block> byKey = new HashMap<>();
    final Map<Long, Long> chains = new HashMap<>();
    final Map<FeedId, Optional<Namespace>> feeds = new HashMap<>();

    Position maxPosition() {
      return byPosition.isEmpty() ? Position.NONE : Position.of(byPosition.lastKey());
    }

    /** Stores {@code block} at the next position and extends the chain there. */
    Block add(Block block) {
      long previous = byPosition.isEmpty() ? 0 : byPosition.lastKey();
      Block positioned = block.withPosition(Position.of(previous + 1));
      byPosition.put(previous + 1, positioned);
      byKey.put(block.key(), positioned);
      chains.put(previous + 1, HistoryChain.next(chains.getOrDefault(previous, HistoryChain.START), block));
      return positioned;
    }

    OptionalLong chainAt(Position position) {
      Long chain = chains.get(position.value());
      return chain == null ? OptionalLong.empty() : OptionalLong.of(chain);
    }

    Space copy() {
      Space copy = new Space();
      copy.byPosition.putAll(byPosition);
      copy.byKey.putAll(byKey);
      copy.chains.putAll(chains);
      copy.feeds.putAll(feeds);
      return copy;
    }
  }
}
