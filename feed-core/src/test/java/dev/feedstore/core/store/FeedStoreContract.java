package dev.feedstore.core.store;

import static dev.feedstore.core.testing.TestBlocks.after;
import static dev.feedstore.core.testing.TestBlocks.block;
import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.FeedInfo;
import dev.feedstore.core.FeedOrder;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Replication;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link FeedStore} must have. An implementation's test extends this class and
 * says how to open a fresh store.
 */
public abstract class FeedStoreContract {
  protected static final SpaceId SPACE = new SpaceId("space-1");
  protected static final SpaceId OTHER_SPACE = new SpaceId("space-2");
  protected static final Namespace DATA = new Namespace("data");
  protected static final Namespace TRACE = new Namespace("trace");

  protected FeedStore store;

  /** A new, empty store. */
  protected abstract FeedStore openFreshStore() throws Exception;

  /**
   * Changes one bit of the data {@link #store} holds for the block under {@code key}, behind the
   * store's back, as a disk that flipped it would.
   */
  protected abstract void flipABitOfStoredData(SpaceId space, BlockKey key) throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = openFreshStore();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected FeedId createFeed(SpaceId space, Optional<Namespace> namespace) {
    FeedId feed = TestBlocks.feedId();
    store.write(tx -> tx.feeds().create(space, feed, namespace));
    return feed;
  }

  protected InsertOutcome insert(SpaceId space, Block block) {
    return store.write(tx -> tx.blocks().insert(space, block));
  }

  @Test
  void createdFeedKeepsItsFirstNamespace() {
    FeedId feed = TestBlocks.feedId();
    FeedInfo created = store.write(tx -> tx.feeds().create(SPACE, feed, Optional.of(DATA)));
    FeedInfo again = store.write(tx -> tx.feeds().create(SPACE, feed, Optional.of(TRACE)));
    assertEquals(Optional.of(DATA), created.namespace());
    assertEquals(Optional.of(DATA), again.namespace());
    assertEquals(Optional.of(DATA), store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().namespace());
  }

  @Test
  void aFeedWithoutNamespaceAdoptsOneOnce() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    assertTrue(store.<Boolean>write(tx -> tx.feeds().adoptNamespace(SPACE, feed, DATA)));
    assertFalse(store.<Boolean>write(tx -> tx.feeds().adoptNamespace(SPACE, feed, TRACE)));
    assertEquals(Optional.of(DATA), store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().namespace());
    assertEquals(1, store.read(tx -> tx.feeds().list(SPACE, Optional.of(DATA))).size());
    assertFalse(store.<Boolean>write(tx -> tx.feeds().adoptNamespace(SPACE, TestBlocks.feedId(), DATA)));
  }

  @Test
  void feedsAreListedPerSpaceAndNamespace() {
    FeedId data = createFeed(SPACE, Optional.of(DATA));
    FeedId trace = createFeed(SPACE, Optional.of(TRACE));
    FeedId plain = createFeed(SPACE, Optional.empty());
    FeedId elsewhere = createFeed(OTHER_SPACE, Optional.of(DATA));

    assertEquals(sorted(data, trace, plain), ids(store.read(tx -> tx.feeds().list(SPACE, Optional.empty()))));
    assertEquals(List.of(data), ids(store.read(tx -> tx.feeds().list(SPACE, Optional.of(DATA)))));
    assertEquals(List.of(elsewhere), ids(store.read(tx -> tx.feeds().list(OTHER_SPACE, Optional.empty()))));
    assertEquals(List.of(), store.read(tx -> tx.feeds().list(new SpaceId("nobody"), Optional.empty())));
    assertEquals(List.of(SPACE, OTHER_SPACE), store.read(tx -> tx.feeds().spaces()));
  }

  @Test
  void feedsAreListedInPagesAfterAFeedId() {
    List<FeedId> all = new java.util.ArrayList<>();
    List<FeedId> data = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) {
      FeedId feed = createFeed(SPACE, Optional.of(i % 2 == 0 ? DATA : TRACE));
      all.add(feed);
      if (i % 2 == 0) {
        data.add(feed);
      }
    }
    all.sort(null);
    data.sort(null);

    assertEquals(all.subList(0, 3), ids(store.read(tx -> tx.feeds().list(SPACE, Optional.empty(), Optional.empty(), 3))));
    assertEquals(all.subList(3, 6),
        ids(store.read(tx -> tx.feeds().list(SPACE, Optional.empty(), Optional.of(all.get(2)), 3))));
    assertEquals(all.subList(6, 7),
        ids(store.read(tx -> tx.feeds().list(SPACE, Optional.empty(), Optional.of(all.get(5)), 3))));
    assertEquals(List.of(), store.read(tx -> tx.feeds().list(SPACE, Optional.empty(), Optional.of(all.get(6)), 3)));
    assertEquals(data.subList(1, data.size()),
        ids(store.read(tx -> tx.feeds().list(SPACE, Optional.of(DATA), Optional.of(data.get(0)), 100))));
  }

  @Test
  void feedInfoCountsBlocksAndKnowsTheLastPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(feed, "a", 0, 4));
    insert(SPACE, positioned(feed, "a", 1, 9));
    insert(SPACE, block(feed, "a", 2));
    FeedInfo info = store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow();
    assertEquals(3, info.blockCount());
    assertEquals(Position.of(9), info.lastPosition());
    assertEquals(info, store.read(tx -> tx.feeds().list(SPACE, Optional.empty())).get(0));
  }

  @Test
  void sameKeyStoredTwiceKeepsOneRowAndTheOriginal() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block original = positioned(feed, "a", 0, 1);
    assertInstanceOf(InsertOutcome.Inserted.class, insert(SPACE, original));

    InsertOutcome again = insert(SPACE, original.withoutPosition());
    assertInstanceOf(InsertOutcome.Duplicate.class, again);
    assertEquals(original, again.stored());
    assertEquals(List.of(original), store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
  }

  @Test
  void sameKeyWithDifferentContentIsAConflictAndChangesNothing() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block original = block(feed, "a", 0, "first");
    insert(SPACE, original);

    Block rival = block(feed, "a", 0, "second");
    InsertOutcome outcome = insert(SPACE, rival);
    InsertOutcome.Conflict conflict = assertInstanceOf(InsertOutcome.Conflict.class, outcome);
    assertEquals(original, conflict.stored());
    assertEquals(rival, conflict.offered());
    assertEquals(List.of(original), store.read(tx -> tx.blocks().feed(SPACE, feed)));

    Block otherTimestamp = new Block(original.key(), original.predecessor(), original.timestamp() + 1,
        original.data(), Position.NONE);
    assertInstanceOf(InsertOutcome.Conflict.class, insert(SPACE, otherTimestamp));
    Block otherPredecessor = original.withPredecessor(Optional.of(new Predecessor(original.actorId(), new Sequence(7))));
    assertInstanceOf(InsertOutcome.Conflict.class, insert(SPACE, otherPredecessor));
  }

  @Test
  void insertIntoUnknownFeedFails() {
    FeedId missing = TestBlocks.feedId();
    UnknownFeedException e = assertThrows(UnknownFeedException.class, () -> insert(SPACE, block(missing, "a", 0)));
    assertTrue(e.getMessage().contains(missing.value()), e.getMessage());
  }

  @Test
  void aPositionIsHeldByOneBlockPerSpace() {
    FeedId one = createFeed(SPACE, Optional.empty());
    FeedId two = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(one, "a", 0, 5));
    UniquenessViolationException e = assertThrows(UniquenessViolationException.class,
        () -> insert(SPACE, positioned(two, "a", 0, 5)));
    assertTrue(e.getMessage().contains("position 5"), e.getMessage());
    assertTrue(e.getMessage().contains(one.value()), e.getMessage());
    assertEquals(List.of(), store.read(tx -> tx.blocks().feed(SPACE, two)));

    FeedId elsewhere = createFeed(OTHER_SPACE, Optional.empty());
    assertInstanceOf(InsertOutcome.Inserted.class, insert(OTHER_SPACE, positioned(elsewhere, "a", 0, 5)));
  }

  @Test
  void setPositionRefusesAPositionHeldByAnotherBlock() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(feed, "a", 0, 1));
    Block second = block(feed, "a", 1);
    insert(SPACE, second);
    UniquenessViolationException e = assertThrows(UniquenessViolationException.class,
        () -> store.write(tx -> tx.blocks().setPosition(SPACE, second.key(), Position.of(1))));
    assertTrue(e.getMessage().contains("position 1"), e.getMessage());
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().find(SPACE, second.key())).orElseThrow().position());
  }

  @Test
  void feedIsReadInFeedOrder() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    List<Block> blocks = List.of(
        block(feed, "b", 3), positioned(feed, "z", 1, 8), block(feed, "a", 3), positioned(feed, "a", 9, 2),
        block(feed, "a", 0), block(feed, "Z", 3));
    blocks.forEach(b -> insert(SPACE, b));
    List<Block> expected = new ArrayList<>(blocks);
    expected.sort(FeedOrder.COMPARATOR);
    assertEquals(expected, store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(Optional.of(expected.get(expected.size() - 1)), store.read(tx -> tx.blocks().lastInFeed(SPACE, feed)));
    FeedId onlyPositioned = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(onlyPositioned, "a", 5, 20));
    insert(SPACE, positioned(onlyPositioned, "a", 4, 21));
    assertEquals(Optional.of(positioned(onlyPositioned, "a", 4, 21)),
        store.read(tx -> tx.blocks().lastInFeed(SPACE, onlyPositioned)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().lastInFeed(SPACE, TestBlocks.feedId())));
  }

  @Test
  void insertAllStoresInOrderAndTellsWhatHappenedToEachBlock() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block stored = positioned(feed, "a", 0, 1);
    insert(SPACE, stored);
    Block conflicting = TestBlocks.block(feed, "a", 0, "other").withPosition(Position.of(7));
    List<InsertOutcome> outcomes = store.write(tx -> tx.blocks().insertAll(SPACE, List.of(
        positioned(feed, "a", 1, 2), stored.withPosition(Position.of(9)), conflicting, positioned(feed, "a", 2, 3))));
    assertInstanceOf(InsertOutcome.Inserted.class, outcomes.get(0));
    assertEquals(new InsertOutcome.Duplicate(stored), outcomes.get(1));
    assertEquals(new InsertOutcome.Conflict(stored, conflicting), outcomes.get(2));
    assertInstanceOf(InsertOutcome.Inserted.class, outcomes.get(3));
    assertEquals(List.of(stored, positioned(feed, "a", 1, 2), positioned(feed, "a", 2, 3)),
        store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(3, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    assertEquals(List.of(), store.write(tx -> tx.blocks().insertAll(SPACE, List.of())));
    UniquenessViolationException taken = assertThrows(UniquenessViolationException.class,
        () -> store.write(tx -> tx.blocks().insertAll(SPACE, List.of(positioned(feed, "a", 5, 5), positioned(feed, "b", 0, 2)))));
    assertEquals("(space, position)", taken.constraint());
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(feed, "a", 5))),
        "the failed write kept nothing");
  }

  @Test
  void blocksAreFoundByManyKeysAndManyPositionsAtOnce() {
    FeedId one = createFeed(SPACE, Optional.empty());
    FeedId two = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(one, "a", 0, 1));
    insert(SPACE, positioned(one, "b", 0, 2));
    insert(SPACE, block(one, "a", 1));
    insert(SPACE, positioned(two, "a", 0, 3));
    insert(OTHER_SPACE, positioned(createFeed(OTHER_SPACE, Optional.empty()), "a", 0, 4));
    Map<BlockKey, Block> byKey = store.read(tx -> tx.blocks().findAll(SPACE, List.of(
        TestBlocks.key(one, "b", 0), TestBlocks.key(one, "a", 1), TestBlocks.key(one, "c", 0),
        TestBlocks.key(two, "a", 0), TestBlocks.key(TestBlocks.feedId(), "a", 0))));
    assertEquals(List.of(TestBlocks.key(one, "b", 0), TestBlocks.key(one, "a", 1), TestBlocks.key(two, "a", 0)),
        List.copyOf(byKey.keySet()));
    assertEquals(block(one, "a", 1), byKey.get(TestBlocks.key(one, "a", 1)));
    Map<Position, Block> byPosition = store.read(tx -> tx.blocks().atPositions(SPACE, List.of(
        Position.of(3), Position.of(1), Position.of(4), Position.NONE, Position.of(99))));
    assertEquals(Set.of(Position.of(1), Position.of(3)), byPosition.keySet());
    assertEquals(positioned(two, "a", 0, 3), byPosition.get(Position.of(3)));
    // Dense and sparse requests may be answered differently; both must find exactly what is held.
    assertEquals(Set.of(Position.of(1), Position.of(2)), store.read(tx -> tx.blocks().atPositions(SPACE,
        List.of(Position.of(1), Position.of(2)))).keySet());
    insert(SPACE, positioned(one, "a", 5000, 9000));
    assertEquals(Set.of(TestBlocks.key(one, "a", 0), TestBlocks.key(one, "a", 5000)), store.read(tx -> tx.blocks()
        .findAll(SPACE, List.of(TestBlocks.key(one, "a", 0), TestBlocks.key(one, "a", 5000), TestBlocks.key(one, "a", 7))))
        .keySet());
    assertEquals(Set.of(Position.of(2), Position.of(9000)), store.read(tx -> tx.blocks().atPositions(SPACE,
        List.of(Position.of(2), Position.of(9000), Position.of(5000)))).keySet());
  }

  @Test
  void ensureCreatesAFeedOnceAndTellsItsNamespace() {
    FeedId feed = TestBlocks.feedId();
    assertEquals(Optional.of(DATA), store.write(tx -> tx.feeds().ensure(SPACE, feed, Optional.of(DATA))));
    assertEquals(Optional.of(DATA), store.write(tx -> tx.feeds().ensure(SPACE, feed, Optional.of(TRACE))));
    assertEquals(Optional.empty(), store.write(tx -> tx.feeds().ensure(SPACE, TestBlocks.feedId(), Optional.empty())));
    assertEquals(2, store.read(tx -> tx.feeds().list(SPACE, Optional.empty())).size());
  }

  @Test
  void aRelaxedWriteCommitsOrRollsBackLikeAWrite() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    store.writeRelaxed(tx -> tx.blocks().insert(SPACE, positioned(feed, "a", 0, 1)));
    assertThrows(IllegalStateException.class, () -> store.writeRelaxed(tx -> {
      tx.blocks().insert(SPACE, positioned(feed, "a", 1, 2));
      throw new IllegalStateException("changed my mind");
    }));
    store.write(tx -> tx.blocks().insert(SPACE, positioned(feed, "a", 2, 3)));
    assertEquals(List.of(1L, 3L), store.read(tx -> tx.blocks().feed(SPACE, feed)).stream()
        .map(b -> b.position().value()).toList());
  }

  @Test
  void blocksAfterACursorComeByPositionWithinTheScope() {
    FeedId data = createFeed(SPACE, Optional.of(DATA));
    FeedId trace = createFeed(SPACE, Optional.of(TRACE));
    FeedId plain = createFeed(SPACE, Optional.empty());
    FeedId[] feeds = {data, trace, plain};
    for (int i = 0; i < 9; i++) {
      insert(SPACE, positioned(feeds[i % 3], "a", i, i + 1));
    }
    insert(SPACE, block(data, "a", 100));

    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions(readAfter(Scope.WHOLE_SPACE, 0, 100)));
    assertEquals(List.of(4L, 5L), positions(readAfter(Scope.WHOLE_SPACE, 3, 2)));
    assertEquals(List.of(1L, 4L, 7L), positions(readAfter(Scope.feeds(Set.of(data)), 0, 100)));
    assertEquals(List.of(2L, 5L, 8L), positions(readAfter(Scope.namespace(TRACE), 0, 100)));
    assertEquals(List.of(3L, 5L, 6L, 8L, 9L), positions(readAfter(Scope.of(Set.of(plain), Set.of(TRACE)), 2, 100)));
    assertEquals(List.of(), positions(readAfter(Scope.NOTHING, 0, 100)));
    assertEquals(List.of(), positions(readAfter(Scope.feeds(Set.of(TestBlocks.feedId())), 0, 100)));
    assertEquals(Position.of(9), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().maxPosition(OTHER_SPACE)));
    assertEquals(Optional.of(5L), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(6)))
        .map(b -> b.sequence().value()));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(10))));
    assertEquals(Optional.of(Position.of(7)), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(8)))
        .map(Block::position));
    assertEquals(Optional.of(Position.of(9)), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(1000)))
        .map(Block::position));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(1))));
  }

  @Test
  void unpositionedBlocksAreListedAndCountedPerScope() {
    FeedId data = createFeed(SPACE, Optional.of(DATA));
    FeedId plain = createFeed(SPACE, Optional.empty());
    insert(SPACE, block(data, "b", 1));
    insert(SPACE, block(data, "a", 1));
    insert(SPACE, positioned(data, "a", 0, 1));
    insert(SPACE, block(plain, "a", 0));

    assertEquals(3L, store.<Long>read(tx -> tx.blocks().countUnpositioned(SPACE, Scope.WHOLE_SPACE)));
    assertEquals(2L, store.<Long>read(tx -> tx.blocks().countUnpositioned(SPACE, Scope.namespace(DATA))));
    assertEquals(0L, store.<Long>read(tx -> tx.blocks().countUnpositioned(SPACE, Scope.NOTHING)));
    List<Block> pending = store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.feeds(Set.of(data)), 10));
    assertEquals(List.of(block(data, "a", 1), block(data, "b", 1)), pending);
    assertEquals(1, store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 1)).size());
  }

  @Test
  void unpositionedBlocksForAPushAreBoundedByTheirDataAndSkipBlocksOverTheBlockLimit() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    int[] sizes = {100, 500, 100, 300, 100, 100};
    for (int i = 0; i < sizes.length; i++) {
      insert(SPACE, Block.unpositioned(TestBlocks.key(feed, "a", i), Optional.empty(), 1_000 + i,
          TestBlocks.bytes(sizes[i])));
    }
    insert(SPACE, positioned(feed, "b", 0, 1));

    // Block 1 (500 bytes) is over the block limit of 400: left out, and listed as larger.
    assertEquals(List.of(0L, 2L, 3L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10, 400, 500))));
    assertEquals(List.of(0L, 2L, 3L, 4L, 5L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10, 400, 10_000))));
    assertEquals(List.of(0L, 2L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 2, 400, 10_000))));
    // The first block comes even when it alone is over the byte budget.
    assertEquals(List.of(0L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10, 400, 50))));
    assertEquals(List.of(), store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.NOTHING, 10, 400, 10_000)));
    assertEquals(List.of(), store.read(tx -> tx.blocks().unpositioned(OTHER_SPACE, Scope.WHOLE_SPACE, 10, 400, 10_000)));

    assertEquals(Map.of(TestBlocks.key(feed, "a", 1), 500), store.read(tx ->
        tx.blocks().unpositionedLarger(SPACE, Scope.WHOLE_SPACE, 400, 10)));
    assertEquals(List.of(TestBlocks.key(feed, "a", 1), TestBlocks.key(feed, "a", 3)), List.copyOf(store.read(tx ->
        tx.blocks().unpositionedLarger(SPACE, Scope.feeds(Set.of(feed)), 200, 10)).keySet()));
    assertEquals(1, store.read(tx -> tx.blocks().unpositionedLarger(SPACE, Scope.WHOLE_SPACE, 99, 1)).size());
    assertEquals(Map.of(), store.read(tx -> tx.blocks().unpositionedLarger(SPACE, Scope.NOTHING, 0, 10)));
  }

  private static List<Long> sequences(List<Block> blocks) {
    return blocks.stream().map(b -> b.sequence().value()).toList();
  }

  @Test
  void positionsAreSetAndCleared() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    for (int i = 0; i < 5; i++) {
      insert(SPACE, block(feed, "a", i));
    }
    store.write(tx -> {
      for (int i = 0; i < 5; i++) {
        assertTrue(tx.blocks().setPosition(SPACE, TestBlocks.key(feed, "a", i), Position.of(10 + i)));
      }
      assertFalse(tx.blocks().setPosition(SPACE, TestBlocks.key(feed, "nobody", 0), Position.of(99)));
      return null;
    });
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L), positions(store.read(tx -> tx.blocks().feed(SPACE, feed))));
    assertEquals(2, store.<Integer>write(tx -> tx.blocks().clearPositionsAbove(SPACE, Position.of(12))));
    assertEquals(Position.of(12), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(3, store.<Integer>write(tx -> tx.blocks().clearPositions(SPACE)));
    assertEquals(5L, store.<Long>read(tx -> tx.blocks().countUnpositioned(SPACE, Scope.WHOLE_SPACE)));
  }

  @Test
  void rekeyMovesAnUnpositionedBlockAndItsUnpublishedSuccessorsLinks() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = positioned(feed, "a", 0, 1);
    Block second = after(first, "a", 1);
    Block third = after(second, "a", 2);
    insert(SPACE, first);
    store.write(tx -> tx.blocks().insertLocal(SPACE, second));
    store.write(tx -> tx.blocks().insertLocal(SPACE, third));

    store.write(tx -> {
      tx.blocks().rekey(SPACE, second.key(), new Sequence(5));
      return null;
    });
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, second.key())));
    Block moved = store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(feed, "a", 5))).orElseThrow();
    assertEquals(second.data(), moved.data());
    assertEquals(second.predecessor(), moved.predecessor());
    Block relinked = store.read(tx -> tx.blocks().find(SPACE, third.key())).orElseThrow();
    assertEquals(Optional.of(new Predecessor(second.actorId(), new Sequence(5))), relinked.predecessor());

    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      tx.blocks().rekey(SPACE, first.key(), new Sequence(9));
      return null;
    }));
    assertThrows(UniquenessViolationException.class, () -> store.write(tx -> {
      tx.blocks().rekey(SPACE, third.key(), new Sequence(5));
      return null;
    }));
    assertEquals(Optional.of(new Sequence(5)), store.read(tx -> tx.blocks().maxSequence(SPACE, feed)));
  }

  @Test
  void historyChainsAreRecordedPerPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = positioned(feed, "a", 0, 1);
    Block second = positioned(feed, "a", 1, 2);
    long one = dev.feedstore.core.HistoryChain.next(dev.feedstore.core.HistoryChain.START, first);
    long two = dev.feedstore.core.HistoryChain.next(one, second);
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second), new long[] {one, two}));
    assertEquals(java.util.OptionalLong.of(one), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(1))));
    assertEquals(java.util.OptionalLong.of(two), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(2))));
    assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
    assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.NONE)));
    insert(SPACE, positioned(feed, "a", 2, 3));
    assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
    store.write(tx -> {
      tx.blocks().setChain(SPACE, Position.of(3), 42L);
      return null;
    });
    assertEquals(java.util.OptionalLong.of(42L), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
  }

  @Test
  void aRecordedChainGoesWithItsPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    List<Block> blocks = List.of(positioned(feed, "a", 0, 1), positioned(feed, "a", 1, 2), positioned(feed, "a", 2, 3),
        positioned(feed, "a", 3, 4));
    store.write(tx -> tx.blocks().insertAll(SPACE, blocks, new long[] {11, 12, 13, 14}));
    store.write(tx -> {
      tx.blocks().setPosition(SPACE, blocks.get(2).key(), Position.NONE);
      tx.blocks().setPosition(SPACE, blocks.get(2).key(), Position.of(3));
      return null;
    });
    assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))),
        "a new position has no chain until one is recorded");
    assertEquals(Optional.of(Position.of(4)), store.read(tx -> tx.blocks().chainedAtOrBelow(SPACE, Position.of(9))));
    assertEquals(Optional.of(Position.of(2)), store.read(tx -> tx.blocks().chainedAtOrBelow(SPACE, Position.of(3))));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().chainedAtOrBelow(SPACE, Position.NONE)));

    store.write(tx -> tx.blocks().clearPositionsAbove(SPACE, Position.of(1)));
    store.write(tx -> tx.blocks().setPosition(SPACE, blocks.get(1).key(), Position.of(2)));
    assertEquals(Optional.of(Position.of(1)), store.read(tx -> tx.blocks().chainedAtOrBelow(SPACE, Position.of(9))));
    store.write(tx -> tx.blocks().clearPositions(SPACE));
    store.write(tx -> tx.blocks().setPosition(SPACE, blocks.get(0).key(), Position.of(1))
        && tx.blocks().setPosition(SPACE, blocks.get(1).key(), Position.of(2)));
    assertEquals(java.util.OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(1))));

    store.write(tx -> {
      tx.blocks().setChain(SPACE, Position.of(1), 21);
      tx.blocks().setChain(SPACE, Position.of(2), 22);
      return null;
    });
    assertEquals(2, store.<Integer>write(tx -> tx.blocks().forgetChains(SPACE)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().chainedAtOrBelow(SPACE, Position.of(9))));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().chainedAtOrBelow(OTHER_SPACE, Position.of(9))));
  }

  @Test
  void aBlockMergesIntoItsCopyUnderAnotherSequence() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block original = block(feed, "a", 0);
    Block copy = original.withSequence(new Sequence(9));
    Block follower = after(original, "b", 1);
    store.write(tx -> {
      tx.blocks().insert(SPACE, original);
      tx.blocks().insert(SPACE, copy);
      tx.blocks().insertLocal(SPACE, follower);
      tx.blocks().mergeInto(SPACE, original.key(), copy.key());
      return null;
    });
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, original.key())));
    assertEquals(Optional.of(Predecessor.of(copy.key())),
        store.read(tx -> tx.blocks().find(SPACE, follower.key())).orElseThrow().predecessor());
    assertEquals(2, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    Block other = block(feed, "a", 3, "other content");
    insert(SPACE, other);
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      tx.blocks().mergeInto(SPACE, other.key(), copy.key());
      return null;
    }));
  }

  @Test
  void rekeyLeavesThePredecessorLinkOfAPublishedBlock() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = block(feed, "a", 0);
    Block sent = after(first, "b", 1);
    Block draft = after(first, "c", 1);
    store.write(tx -> {
      tx.blocks().insertLocal(SPACE, first);
      tx.blocks().insertLocal(SPACE, sent);
      tx.blocks().insertLocal(SPACE, draft);
      assertEquals(Set.of(first.key(), sent.key(), draft.key()),
          tx.blocks().unpublished(SPACE, List.of(first.key(), sent.key(), draft.key())));
      tx.blocks().markPublished(SPACE, List.of(sent.key()), true);
      tx.blocks().rekey(SPACE, first.key(), new Sequence(7));
      return null;
    });
    assertEquals(first.predecessor().isPresent(), false);
    assertEquals(sent.predecessor(), store.read(tx -> tx.blocks().find(SPACE, sent.key())).orElseThrow().predecessor());
    assertEquals(Optional.of(new Predecessor(first.actorId(), new Sequence(7))),
        store.read(tx -> tx.blocks().find(SPACE, draft.key())).orElseThrow().predecessor());
    assertEquals(Set.of(draft.key()), store.read(tx -> tx.blocks().unpublished(SPACE, List.of(sent.key(), draft.key()))));
    store.write(tx -> {
      tx.blocks().markPublished(SPACE, List.of(sent.key()), false);
      return null;
    });
    assertEquals(Set.of(sent.key(), draft.key()), store.read(tx -> tx.blocks().unpublished(SPACE, List.of(sent.key(), draft.key()))));
  }

  @Test
  void aWriteThatFailsHalfWayLeavesNothingBehind() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(feed, "a", 0, 1));
    RuntimeException boom = new IllegalStateException("boom");
    RuntimeException thrown = assertThrows(RuntimeException.class, () -> store.write(tx -> {
      FeedId newFeed = TestBlocks.feedId();
      tx.feeds().create(SPACE, newFeed, Optional.of(DATA));
      tx.blocks().insert(SPACE, positioned(newFeed, "a", 0, 2));
      tx.blocks().insert(SPACE, positioned(feed, "a", 1, 3));
      tx.blocks().setPosition(SPACE, TestBlocks.key(feed, "a", 0), Position.NONE);
      tx.serverTokens().findOrCreate(OTHER_SPACE);
      throw boom;
    }));
    assertEquals(boom, thrown);
    assertEquals(List.of(positioned(feed, "a", 0, 1)), store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(1, store.read(tx -> tx.feeds().list(SPACE, Optional.empty())).size());
    assertEquals(Optional.empty(), store.read(tx -> tx.serverTokens().find(OTHER_SPACE)));
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
  }

  @Test
  void aWriteThatBreaksUniquenessHalfWayLeavesNothingBehind() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(feed, "a", 0, 1));
    assertThrows(UniquenessViolationException.class, () -> store.write(tx -> {
      tx.blocks().insert(SPACE, positioned(feed, "a", 1, 2));
      tx.blocks().insert(SPACE, positioned(feed, "a", 2, 3));
      tx.blocks().insert(SPACE, positioned(feed, "a", 3, 1));
      return null;
    }));
    assertEquals(List.of(1L), positions(store.read(tx -> tx.blocks().feed(SPACE, feed))));
  }

  @Test
  void serverTokenIsCreatedOnceAndKept() {
    createFeed(SPACE, Optional.empty()); // a space with data but no token yet
    assertEquals(Optional.empty(), store.read(tx -> tx.serverTokens().find(SPACE)));
    assertEquals(0L, store.<Long>read(tx -> tx.serverTokens().count()));
    ServerToken token = store.write(tx -> tx.serverTokens().findOrCreate(SPACE));
    ServerToken again = store.write(tx -> tx.serverTokens().findOrCreate(SPACE));
    assertEquals(token, again);
    assertEquals(Optional.of(token), store.read(tx -> tx.serverTokens().find(SPACE)));
    assertEquals(1L, store.<Long>read(tx -> tx.serverTokens().count()));
    ServerToken other = store.write(tx -> tx.serverTokens().findOrCreate(OTHER_SPACE));
    assertFalse(token.equals(other));
    assertEquals(2L, store.<Long>read(tx -> tx.serverTokens().count()));
  }

  @Test
  void eachSpaceCountsItsFeedsInTheTransactionsThatCreateThem() {
    assertEquals(0L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
    FeedId first = createFeed(SPACE, Optional.empty());
    createFeed(SPACE, Optional.of(DATA));
    createFeed(OTHER_SPACE, Optional.empty());
    assertEquals(2L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
    assertEquals(1L, store.<Long>read(tx -> tx.feeds().count(OTHER_SPACE)));

    store.write(tx -> {
      tx.feeds().create(SPACE, TestBlocks.feedId(), Optional.empty());
      tx.feeds().create(SPACE, first, Optional.empty()); // has it: not counted again
      assertEquals(3L, tx.feeds().count(SPACE));
      return null;
    });
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      tx.feeds().create(SPACE, TestBlocks.feedId(), Optional.empty());
      throw new IllegalStateException("rolled back");
    }));

    assertEquals(3L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
  }

  @Test
  void theTokenOfASpaceWithoutOneIsTheOneItWillStoreAndAskingForItStoresNothing() {
    SpaceId unknown = new SpaceId("never-written");
    ServerToken before = store.read(tx -> tx.serverTokens().tokenOf(unknown));
    assertEquals(before, store.read(tx -> tx.serverTokens().tokenOf(unknown)));
    assertFalse(before.equals(store.read(tx -> tx.serverTokens().tokenOf(SPACE))), "each space has its own");
    assertEquals(Optional.empty(), store.read(tx -> tx.serverTokens().find(unknown)));
    assertEquals(0L, store.<Long>read(tx -> tx.serverTokens().count()));
    assertEquals(List.of(), store.read(tx -> tx.feeds().spaces()));

    assertEquals(before, store.write(tx -> tx.serverTokens().findOrCreate(unknown)));
    assertEquals(before, store.read(tx -> tx.serverTokens().tokenOf(unknown)));
    assertEquals(Optional.of(before), store.read(tx -> tx.serverTokens().find(unknown)));
  }

  @Test
  void subscriptionsAreStoredExtendedAndPurged() {
    FeedId feed = TestBlocks.feedId();
    Subscription subscription = new Subscription("sub-1", SPACE, new Scope.Selection(Set.of(feed), Set.of(DATA)), 3_000, 5_000);
    store.write(tx -> {
      tx.subscriptions().create(subscription);
      tx.subscriptions().create(new Subscription("sub-2", SPACE, new Scope.Selection(Set.of(), Set.of(TRACE)), 3_000, 1_000));
      return null;
    });
    assertEquals(Optional.of(subscription), store.read(tx -> tx.subscriptions().find("sub-1")));
    assertTrue(store.<Boolean>write(tx -> tx.subscriptions().setExpiry("sub-1", 9_000)));
    assertFalse(store.<Boolean>write(tx -> tx.subscriptions().setExpiry("nope", 9_000)));
    assertEquals(1, store.<Integer>write(tx -> tx.subscriptions().purgeExpired(1_000)));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().find("sub-2")));
    assertEquals(9_000, store.read(tx -> tx.subscriptions().find("sub-1")).orElseThrow().expiresAtMillis());
  }

  @Test
  void syncStateRoundTrips() {
    assertEquals(SyncState.INITIAL, store.read(tx -> tx.syncStates().get(SPACE)));
    BlockKey key = TestBlocks.key(TestBlocks.feedId(), "a", 3);
    SyncState state = new SyncState(Position.of(42), Optional.of(key), java.util.OptionalLong.of(-7L),
        Optional.of(ServerToken.of("tok")), Position.of(50));
    store.write(tx -> {
      tx.syncStates().put(SPACE, state);
      return null;
    });
    assertEquals(state, store.read(tx -> tx.syncStates().get(SPACE)));
    store.write(tx -> {
      tx.syncStates().put(SPACE, SyncState.INITIAL);
      return null;
    });
    assertEquals(SyncState.INITIAL, store.read(tx -> tx.syncStates().get(SPACE)));
  }

  @Test
  void replicationPoliciesRoundTrip() {
    FeedId full = createFeed(SPACE, Optional.empty());
    FeedId latest = createFeed(SPACE, Optional.empty());
    FeedId none = createFeed(SPACE, Optional.empty());
    Replication fromSeven = Replication.from(Position.of(7));
    store.write(tx -> {
      tx.replication().setFeed(SPACE, full, fromSeven);
      tx.replication().setFeed(SPACE, latest, Replication.LATEST);
      tx.replication().setFeed(SPACE, none, Replication.fullHistory());
      tx.replication().setFeed(SPACE, none, Replication.NONE);
      tx.replication().setNamespace(SPACE, DATA, true);
      tx.replication().setNamespace(SPACE, TRACE, true);
      tx.replication().setNamespace(SPACE, TRACE, false);
      return null;
    });
    assertEquals(fromSeven, store.read(tx -> tx.replication().feed(SPACE, full)));
    assertEquals(Replication.NONE, store.read(tx -> tx.replication().feed(SPACE, none)));
    assertEquals(Map.of(full, fromSeven, latest, Replication.LATEST),
        store.read(tx -> tx.replication().feeds(SPACE)));
    assertEquals(Set.of(DATA), store.read(tx -> tx.replication().namespaces(SPACE)));
    assertEquals(Set.of(SPACE), store.read(tx -> tx.replication().spaces()));
    assertThrows(UnknownFeedException.class, () -> store.write(tx -> {
      tx.replication().setFeed(SPACE, TestBlocks.feedId(), Replication.LATEST);
      return null;
    }));
  }

  @Test
  void aBlockWhoseStoredBytesChangedFailsEveryReadOfItNamingItsKey() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.of(DATA));
    Block first = positioned(feed, "a", 0, 1);
    Block second = after(first, "a", 1).withPosition(Position.of(2));
    Block local = after(second, "a", 2);
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second, local)));
    flipABitOfStoredData(SPACE, second.key());
    flipABitOfStoredData(SPACE, local.key());

    List<FeedStore.Work<?>> reads = List.of(
        tx -> tx.blocks().find(SPACE, second.key()),
        tx -> tx.blocks().findAll(SPACE, List.of(first.key(), second.key())),
        tx -> tx.blocks().atPosition(SPACE, Position.of(2)),
        tx -> tx.blocks().atPositions(SPACE, List.of(Position.of(1), Position.of(2))),
        tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10),
        tx -> tx.blocks().after(SPACE, Scope.namespace(DATA), Position.of(1), 1),
        tx -> tx.blocks().lastBefore(SPACE, Position.of(3)),
        tx -> tx.blocks().feed(SPACE, feed));
    for (FeedStore.Work<?> read : reads) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> store.read(read));
      assertEquals(SPACE, e.spaceId());
      assertEquals(second.key(), e.key());
      assertEquals(Position.of(2), e.position());
      for (String part : List.of("space space-1", "feed " + feed, "actor a", "sequence 1", "position 2", "checksum")) {
        assertTrue(e.getMessage().contains(part), e.getMessage());
      }
    }
    for (FeedStore.Work<?> read : List.<FeedStore.Work<?>>of(
        tx -> tx.blocks().lastInFeed(SPACE, feed),
        tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10))) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> store.read(read));
      assertEquals(local.key(), e.key());
      assertEquals(Position.NONE, e.position());
      assertTrue(e.getMessage().contains("unpositioned"), e.getMessage());
    }
    assertThrows(CorruptBlockException.class, () -> store.write(tx -> tx.blocks().insert(SPACE, second)),
        "a write that meets it (here: the same key stored again) fails too");
  }

  @Test
  void readsThatDoNotTouchACorruptBlockSucceed() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.of(DATA));
    FeedId other = createFeed(SPACE, Optional.of(TRACE));
    FeedId elsewhere = createFeed(OTHER_SPACE, Optional.empty());
    for (int i = 0; i < 6; i++) {
      insert(SPACE, positioned(i % 2 == 0 ? feed : other, "a", i, i + 1));
    }
    insert(OTHER_SPACE, positioned(elsewhere, "a", 0, 3));
    Block bad = positioned(feed, "a", 2, 3);
    flipABitOfStoredData(SPACE, bad.key());

    assertEquals(List.of(4L, 5L, 6L), positions(readAfter(Scope.WHOLE_SPACE, 3, 10)));
    assertEquals(List.of(1L, 2L), positions(readAfter(Scope.WHOLE_SPACE, 0, 2)));
    assertEquals(List.of(2L, 4L, 6L), positions(readAfter(Scope.namespace(TRACE), 0, 10)));
    assertEquals(List.of(1L, 2L), positions(store.read(tx ->
        tx.blocks().between(SPACE, Scope.WHOLE_SPACE, Position.NONE, Position.of(3), 10))));
    assertEquals(List.of(2L), positions(store.read(tx ->
        tx.blocks().between(SPACE, Scope.namespace(TRACE), Position.NONE, Position.of(3), 10))));
    assertEquals(List.of(4L), positions(store.read(tx ->
        tx.blocks().between(SPACE, Scope.WHOLE_SPACE, Position.of(3), Position.of(6), 1))));
    assertEquals(Position.of(6), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(1, store.read(tx -> tx.blocks().feed(OTHER_SPACE, elsewhere)).size());
    assertEquals(Optional.of(Position.of(5)),
        store.read(tx -> tx.blocks().lastInFeed(SPACE, feed)).map(Block::position));
  }

  @Test
  void aCorruptBlockSetAsideFreesItsKeyAndPositionForAGoodCopy() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = positioned(feed, "a", 0, 1);
    Block second = positioned(feed, "a", 1, 2);
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second)));
    flipABitOfStoredData(SPACE, second.key());

    assertTrue(store.<Boolean>write(tx -> tx.blocks().setAside(SPACE, second.key())));
    assertEquals(List.of(first), store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(2))));
    assertEquals(1L, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    assertFalse(store.<Boolean>write(tx -> tx.blocks().setAside(SPACE, second.key())), "nothing is stored there now");

    assertInstanceOf(InsertOutcome.Inserted.class, insert(SPACE, second));
    assertEquals(List.of(first, second), store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(2L, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
  }

  @Test
  void blocksRewrittenByRekeyAndRelinkStillVerify() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = block(feed, "a", 0);
    Block second = after(first, "a", 1);
    Block third = after(second, "b", 1);
    for (Block block : List.of(first, second, third)) {
      store.write(tx -> tx.blocks().insertLocal(SPACE, block));
    }
    store.write(tx -> {
      tx.blocks().rekey(SPACE, first.key(), new Sequence(7));
      tx.blocks().rekey(SPACE, second.key(), new Sequence(8));
      tx.blocks().setPosition(SPACE, third.key(), Position.of(1));
      return null;
    });
    List<Block> read = store.read(tx -> tx.blocks().feed(SPACE, feed));
    assertEquals(3, read.size());
    assertEquals(Optional.of(new Predecessor(first.actorId(), new Sequence(8))), read.get(0).predecessor());
    assertEquals(Optional.of(new Predecessor(first.actorId(), new Sequence(7))), read.get(2).predecessor());
  }

  @Test
  void aSpacePolicyRoundTripsAndNamesItsSpace() {
    SpaceId whole = new SpaceId("whole");
    assertEquals(Replication.NONE, store.read(tx -> tx.replication().space(whole)));
    store.write(tx -> {
      tx.replication().setSpace(whole, Replication.LATEST);
      return null;
    });
    assertEquals(Replication.LATEST, store.read(tx -> tx.replication().space(whole)));
    assertEquals(Set.of(whole), store.read(tx -> tx.replication().spaces()));
    store.write(tx -> {
      tx.replication().setSpace(whole, Replication.from(Position.of(12)));
      return null;
    });
    assertEquals(Replication.from(Position.of(12)), store.read(tx -> tx.replication().space(whole)));
    store.write(tx -> {
      tx.replication().setSpace(whole, Replication.NONE);
      return null;
    });
    assertEquals(Replication.NONE, store.read(tx -> tx.replication().space(whole)));
    assertEquals(Set.of(), store.read(tx -> tx.replication().spaces()));
  }

  protected List<Block> readAfter(Scope scope, long cursor, int limit) {
    return store.read(tx -> tx.blocks().after(SPACE, scope, Position.of(cursor), limit));
  }

  protected static List<Long> positions(List<Block> blocks) {
    return blocks.stream().map(b -> b.position().value()).toList();
  }

  private static List<FeedId> ids(List<FeedInfo> feeds) {
    return feeds.stream().map(FeedInfo::feedId).toList();
  }

  private static List<FeedId> sorted(FeedId... ids) {
    return java.util.Arrays.stream(ids).sorted().toList();
  }
}
