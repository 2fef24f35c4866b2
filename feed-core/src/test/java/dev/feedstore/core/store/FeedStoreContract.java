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
import org.junit.jupiter.api.Test;

/**
 * The behaviour every replica's store ({@link FeedStore}) must have: everything an authority's
 * store must ({@link AuthorityStoreContract}), and the replica's own moves and state. An
 * implementation's test extends this class and says how to open a fresh store.
 */
public abstract class FeedStoreContract extends AuthorityStoreContract<FeedStore> {

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
  void feedInfoCountsUnpositionedBlocksToo() {
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
  void sameKeyStoredAgainWithoutPositionKeepsOneRowAndTheOriginal() {
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
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(), 10, 400, 500))));
    assertEquals(List.of(0L, 2L, 3L, 4L, 5L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(), 10, 400, 10_000))));
    assertEquals(List.of(0L, 2L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(), 2, 400, 10_000))));
    // The first block comes even when it alone is over the byte budget.
    assertEquals(List.of(0L), sequences(store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(), 10, 400, 50))));
    assertEquals(List.of(), store.read(tx ->
        tx.blocks().unpositioned(SPACE, Scope.NOTHING, Set.of(), 10, 400, 10_000)));
    assertEquals(List.of(), store.read(tx ->
        tx.blocks().unpositioned(OTHER_SPACE, Scope.WHOLE_SPACE, Set.of(), 10, 400, 10_000)));

    assertEquals(Map.of(TestBlocks.key(feed, "a", 1), 500), store.read(tx ->
        tx.blocks().unpositionedLarger(SPACE, Scope.WHOLE_SPACE, 400, 10)));
    assertEquals(List.of(TestBlocks.key(feed, "a", 1), TestBlocks.key(feed, "a", 3)), List.copyOf(store.read(tx ->
        tx.blocks().unpositionedLarger(SPACE, Scope.feeds(Set.of(feed)), 200, 10)).keySet()));
    assertEquals(1, store.read(tx -> tx.blocks().unpositionedLarger(SPACE, Scope.WHOLE_SPACE, 99, 1)).size());
    assertEquals(Map.of(), store.read(tx -> tx.blocks().unpositionedLarger(SPACE, Scope.NOTHING, 0, 10)));
  }

  @Test
  void unpositionedBlocksForAPushLeaveOutTheFeedsAsked() {
    FeedId kept = createFeed(SPACE, Optional.empty());
    FeedId closed = createFeed(SPACE, Optional.empty());
    for (int i = 0; i < 3; i++) {
      insert(SPACE, block(closed, "a", i));
      insert(SPACE, block(kept, "a", i));
    }

    List<Block> pushed = store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(closed), 2,
        1_000, 10_000));
    assertEquals(List.of(block(kept, "a", 0), block(kept, "a", 1)), pushed, "the limit counts only blocks pushed");
    assertEquals(List.of(), store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.feeds(Set.of(closed)),
        Set.of(closed), 10, 1_000, 10_000)));
    assertEquals(6, store.read(tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, Set.of(), 10, 1_000, 10_000))
        .size());
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

  @Test
  void aReplicaWriteThatFailsHalfWayLeavesNothingBehind() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = positioned(feed, "a", 0, 1);
    Block local = after(first, "a", 1);
    insert(SPACE, first);
    store.write(tx -> tx.blocks().insertLocal(SPACE, local));
    RuntimeException boom = new IllegalStateException("boom");
    RuntimeException thrown = assertThrows(RuntimeException.class, () -> store.write(tx -> {
      tx.blocks().setPosition(SPACE, first.key(), Position.NONE);
      tx.blocks().rekey(SPACE, local.key(), new Sequence(5));
      tx.blocks().markPublished(SPACE, List.of(local.key()), true);
      tx.feeds().adoptNamespace(SPACE, feed, DATA);
      tx.syncStates().put(SPACE, new SyncState(Position.of(1), Optional.of(first.key()), java.util.OptionalLong.empty(),
          Optional.of(ServerToken.of("tok")), Position.NONE));
      tx.replication().setFeed(SPACE, feed, Replication.LATEST);
      tx.replication().setSpace(SPACE, Replication.fullHistory());
      throw boom;
    }));
    assertEquals(boom, thrown);
    assertEquals(List.of(first, local), store.read(tx -> tx.blocks().feed(SPACE, feed)));
    assertEquals(Set.of(local.key()), store.read(tx -> tx.blocks().unpublished(SPACE, List.of(local.key()))));
    assertEquals(Optional.empty(), store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().namespace());
    assertEquals(SyncState.INITIAL, store.read(tx -> tx.syncStates().get(SPACE)));
    assertEquals(Replication.NONE, store.read(tx -> tx.replication().feed(SPACE, feed)));
    assertEquals(Replication.NONE, store.read(tx -> tx.replication().space(SPACE)));
  }

  @Test
  void unpositionedBlocksAreNotReadAfterACursorAndLastBeforeSkipsThem() {
    FeedId data = createFeed(SPACE, Optional.of(DATA));
    FeedId plain = createFeed(SPACE, Optional.empty());
    for (int i = 0; i < 9; i++) {
      insert(SPACE, positioned(i % 2 == 0 ? data : plain, "a", i, i + 1));
    }
    insert(SPACE, block(data, "a", 100));

    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions(readAfter(Scope.WHOLE_SPACE, 0, 100)));
    assertEquals(Position.of(9), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(Optional.of(Position.of(7)), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(8)))
        .map(Block::position));
    assertEquals(Optional.of(Position.of(9)), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(1000)))
        .map(Block::position));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().lastBefore(SPACE, Position.of(1))));
  }

  @Test
  void aCorruptBlockFailsEveryReplicaReadOfItNamingItsKey() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.of(DATA));
    Block first = positioned(feed, "a", 0, 1);
    Block second = after(first, "a", 1).withPosition(Position.of(2));
    Block local = after(second, "a", 2);
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second, local)));
    flipABitOfStoredData(SPACE, second.key());
    flipABitOfStoredData(SPACE, local.key());

    List<FeedStore.Work<StoreTransaction, ?>> reads = List.of(
        tx -> tx.blocks().findAll(SPACE, List.of(first.key(), second.key())),
        tx -> tx.blocks().atPositions(SPACE, List.of(Position.of(1), Position.of(2))),
        tx -> tx.blocks().lastBefore(SPACE, Position.of(3)),
        tx -> tx.blocks().feed(SPACE, feed));
    for (FeedStore.Work<StoreTransaction, ?> read : reads) {
      assertCorrupt(assertThrows(CorruptBlockException.class, () -> store.read(read)), second, Position.of(2));
    }
    for (FeedStore.Work<StoreTransaction, ?> read : List.<FeedStore.Work<StoreTransaction, ?>>of(
        tx -> tx.blocks().lastInFeed(SPACE, feed),
        tx -> tx.blocks().unpositioned(SPACE, Scope.WHOLE_SPACE, 10))) {
      assertCorrupt(assertThrows(CorruptBlockException.class, () -> store.read(read)), local, Position.NONE);
    }
  }

  @Test
  void replicaReadsThatDoNotTouchACorruptBlockSucceed() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.empty());
    FeedId elsewhere = createFeed(OTHER_SPACE, Optional.empty());
    for (int i = 0; i < 6; i++) {
      insert(SPACE, positioned(feed, "a", i, i + 1));
    }
    insert(OTHER_SPACE, positioned(elsewhere, "a", 0, 3));
    flipABitOfStoredData(SPACE, TestBlocks.key(feed, "a", 2));

    assertEquals(1, store.read(tx -> tx.blocks().feed(OTHER_SPACE, elsewhere)).size());
    assertEquals(Optional.of(Position.of(6)),
        store.read(tx -> tx.blocks().lastInFeed(SPACE, feed)).map(Block::position));
    assertEquals(Set.of(Position.of(4), Position.of(5)), store.read(tx ->
        tx.blocks().atPositions(SPACE, List.of(Position.of(4), Position.of(5)))).keySet());
  }

  private static List<Long> sequences(List<Block> blocks) {
    return blocks.stream().map(b -> b.sequence().value()).toList();
  }
}
