package dev.feedstore.core.store;

import static dev.feedstore.core.testing.TestBlocks.after;
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
import dev.feedstore.core.HistoryChain;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Position;
import dev.feedstore.core.Predecessor;
import dev.feedstore.core.Scope;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every store the position authority serves from must have ({@link AuthorityStore}),
 * written against the authority's views only. A store's test extends this class and says how to
 * open a fresh store and how to damage a stored block; the replica's store runs it too, through
 * {@link FeedStoreContract}. Blocks here always carry positions, as an authority's do.
 *
 * @param <S> the type of the store under test
 */
public abstract class AuthorityStoreContract<S extends AuthorityStore<?>> {
  protected static final SpaceId SPACE = new SpaceId("space-1");
  protected static final SpaceId OTHER_SPACE = new SpaceId("space-2");
  protected static final Namespace DATA = new Namespace("data");
  protected static final Namespace TRACE = new Namespace("trace");

  protected S store;

  /** A new, empty store. */
  protected abstract S openFreshStore() throws Exception;

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
    assertEquals(Set.of(data, plain), store.read(tx -> tx.feeds().namespaces(SPACE,
        List.of(data, plain, TestBlocks.feedId()))).keySet());
    assertEquals(Optional.empty(), store.read(tx -> tx.feeds().namespaces(SPACE, List.of(plain))).get(plain));
  }

  @Test
  void feedsAreListedInPagesAfterAFeedId() {
    List<FeedId> all = new ArrayList<>();
    List<FeedId> data = new ArrayList<>();
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
  void feedInfoCountsTheFeedsBlocksAndKnowsItsLastPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    FeedId other = createFeed(SPACE, Optional.empty());
    insert(SPACE, positioned(feed, "a", 0, 4));
    insert(SPACE, positioned(feed, "a", 1, 9));
    insert(SPACE, positioned(other, "a", 0, 12));
    FeedInfo info = store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow();
    assertEquals(2, info.blockCount());
    assertEquals(Position.of(9), info.lastPosition());
    assertTrue(store.read(tx -> tx.feeds().list(SPACE, Optional.empty())).contains(info));
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
  void sameKeyOfferedAgainKeepsOneRowAndTheOriginalAtItsPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block original = positioned(feed, "a", 0, 1);
    assertInstanceOf(InsertOutcome.Inserted.class, insert(SPACE, original));

    InsertOutcome again = insert(SPACE, original.withPosition(Position.of(2)));
    assertInstanceOf(InsertOutcome.Duplicate.class, again);
    assertEquals(original, again.stored());
    assertEquals(List.of(original), readAfter(Scope.WHOLE_SPACE, 0, 10));
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
  }

  @Test
  void sameKeyWithDifferentContentIsAConflictAndChangesNothing() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block original = TestBlocks.block(feed, "a", 0, "first").withPosition(Position.of(1));
    insert(SPACE, original);

    Block rival = TestBlocks.block(feed, "a", 0, "second").withPosition(Position.of(2));
    InsertOutcome.Conflict conflict = assertInstanceOf(InsertOutcome.Conflict.class, insert(SPACE, rival));
    assertEquals(original, conflict.stored());
    assertEquals(rival, conflict.offered());
    assertEquals(List.of(original), readAfter(Scope.WHOLE_SPACE, 0, 10));

    Block otherTimestamp = new Block(original.key(), original.predecessor(), original.timestamp() + 1,
        original.data(), Position.of(2));
    assertInstanceOf(InsertOutcome.Conflict.class, insert(SPACE, otherTimestamp));
    Block otherPredecessor = original.withPredecessor(Optional.of(new Predecessor(original.actorId(), new Sequence(7))))
        .withPosition(Position.of(2));
    assertInstanceOf(InsertOutcome.Conflict.class, insert(SPACE, otherPredecessor));
    assertEquals(Position.of(1), store.read(tx -> tx.blocks().maxPosition(SPACE)));
  }

  @Test
  void insertIntoUnknownFeedFails() {
    FeedId missing = TestBlocks.feedId();
    UnknownFeedException e = assertThrows(UnknownFeedException.class, () -> insert(SPACE, positioned(missing, "a", 0, 1)));
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
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(two, "a", 0))));

    FeedId elsewhere = createFeed(OTHER_SPACE, Optional.empty());
    assertInstanceOf(InsertOutcome.Inserted.class, insert(OTHER_SPACE, positioned(elsewhere, "a", 0, 5)));
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
        readAfter(Scope.WHOLE_SPACE, 0, 10));
    assertEquals(3, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    assertEquals(List.of(), store.write(tx -> tx.blocks().insertAll(SPACE, List.of())));
    UniquenessViolationException taken = assertThrows(UniquenessViolationException.class,
        () -> store.write(tx -> tx.blocks().insertAll(SPACE, List.of(positioned(feed, "a", 5, 5), positioned(feed, "b", 0, 2)))));
    assertEquals("(space, position)", taken.constraint());
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(feed, "a", 5))),
        "the failed write kept nothing");
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

    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), positions(readAfter(Scope.WHOLE_SPACE, 0, 100)));
    assertEquals(List.of(4L, 5L), positions(readAfter(Scope.WHOLE_SPACE, 3, 2)));
    assertEquals(List.of(1L, 4L, 7L), positions(readAfter(Scope.feeds(Set.of(data)), 0, 100)));
    assertEquals(List.of(2L, 5L, 8L), positions(readAfter(Scope.namespace(TRACE), 0, 100)));
    assertEquals(List.of(3L, 5L, 6L, 8L, 9L), positions(readAfter(Scope.of(Set.of(plain), Set.of(TRACE)), 2, 100)));
    assertEquals(List.of(), positions(readAfter(Scope.NOTHING, 0, 100)));
    assertEquals(List.of(), positions(readAfter(Scope.feeds(Set.of(TestBlocks.feedId())), 0, 100)));
    assertEquals(List.of(4L, 5L), positions(store.read(tx ->
        tx.blocks().between(SPACE, Scope.WHOLE_SPACE, Position.of(3), Position.of(6), 10))));
    assertEquals(Position.of(9), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().maxPosition(OTHER_SPACE)));
    assertEquals(Optional.of(5L), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(6)))
        .map(b -> b.sequence().value()));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(10))));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().atPosition(SPACE, Position.NONE)));
    assertEquals(Optional.of(positioned(trace, "a", 4, 5)),
        store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(trace, "a", 4))));
  }

  @Test
  void historyChainsAreRecordedPerPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block first = positioned(feed, "a", 0, 1);
    Block second = positioned(feed, "a", 1, 2);
    long one = HistoryChain.next(HistoryChain.START, first);
    long two = HistoryChain.next(one, second);
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second), new long[] {one, two}));
    assertEquals(OptionalLong.of(one), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(1))));
    assertEquals(OptionalLong.of(two), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(2))));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.NONE)));
    insert(SPACE, positioned(feed, "a", 2, 3));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
    store.write(tx -> {
      tx.blocks().setChain(SPACE, Position.of(3), 42L);
      return null;
    });
    assertEquals(OptionalLong.of(42L), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(3))));
    assertTrue(one != two && one != HistoryChain.next(HistoryChain.START, second),
        "the chain depends on the block and on what came before");
  }

  @Test
  void anAppendStoresEachSpacesBlocksAtItsNextPositionsWithTheirFeedsChainsAndReceiveTime() {
    FeedId held = createFeed(SPACE, Optional.of(DATA));
    Block earlier = positioned(held, "a", 0, 1);
    long earlierChain = HistoryChain.next(HistoryChain.START, earlier);
    store.write(tx -> tx.blocks().claimPositions(SPACE, 1));
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(earlier), new long[] {earlierChain}));
    FeedId created = TestBlocks.feedId();
    FeedId elsewhere = TestBlocks.feedId();
    List<Block> blocks = List.of(
        Block.unpositioned(TestBlocks.key(held, "a", 1), Optional.of(new Predecessor(earlier.actorId(),
            earlier.sequence())), 5, earlier.data()),
        TestBlocks.block(created, "b", 0), TestBlocks.block(held, "c", 7, ""));
    List<Block> others = List.of(TestBlocks.block(elsewhere, "d", 0), TestBlocks.block(elsewhere, "d", 1));
    java.util.Map<FeedId, Optional<Namespace>> feeds = new java.util.LinkedHashMap<>();
    feeds.put(held, Optional.of(TRACE));
    feeds.put(created, Optional.of(TRACE));

    List<SpaceAppend.Stored> stored = store.write(tx -> tx.append(List.of(
        new SpaceAppend(SPACE, feeds, blocks, 7_000),
        new SpaceAppend(OTHER_SPACE, java.util.Map.of(elsewhere, Optional.empty()), others, 8_000))));

    SpaceAppend.Stored first = stored.get(0);
    assertEquals(Position.of(1), first.before());
    assertEquals(7_000, first.receivedAt());
    assertEquals(Optional.of(DATA), first.namespaces().get(held), "a feed the space has keeps its namespace");
    assertEquals(Optional.of(TRACE), first.namespaces().get(created));
    assertEquals(List.of(created), first.created());
    assertEquals(OptionalLong.of(1), first.feedsBefore());
    assertTrue(first.allStored());
    long chain = earlierChain;
    for (int i = 0; i < blocks.size(); i++) {
      Block block = blocks.get(i).withPosition(Position.of(2 + i)).withReceivedAt(7_000);
      chain = HistoryChain.next(chain, block);
      assertEquals(chain, first.chains()[i], "the chain at block " + i);
      assertEquals(OptionalLong.of(chain), store.read(tx -> tx.blocks().chainAt(SPACE, block.position())));
      assertEquals(Optional.of(block), store.read(tx -> tx.blocks().atPosition(SPACE, block.position())));
    }
    assertEquals(3, store.read(tx -> tx.feeds().find(SPACE, held)).orElseThrow().blockCount());
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, created)).orElseThrow().blockCount());
    assertEquals(2L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
    assertEquals(Position.of(4), store.write(tx -> tx.blocks().claimPositions(SPACE, 0)), "the counter moved");

    SpaceAppend.Stored second = stored.get(1);
    assertEquals(Position.NONE, second.before());
    assertEquals(List.of(elsewhere), second.created());
    assertEquals(OptionalLong.of(0), second.feedsBefore());
    assertEquals(HistoryChain.next(HistoryChain.START,
        others.get(0).withPosition(Position.of(1)).withReceivedAt(8_000)),
        second.chains()[0]);
    assertEquals(Position.of(2), store.read(tx -> tx.blocks().maxPosition(OTHER_SPACE)));
  }

  @Test
  void anAppendNeverStampsAReceiveTimeBeforeTheLastAndCreatesNoFeedItHas() {
    FeedId feed = TestBlocks.feedId();
    SpaceAppend.Stored first = store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE,
        java.util.Map.of(feed, Optional.empty()), List.of(TestBlocks.block(feed, "a", 0)), 9_000)))).get(0);
    SpaceAppend.Stored second = store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE,
        java.util.Map.of(feed, Optional.of(DATA)), List.of(TestBlocks.block(feed, "a", 1)), 4_000)))).get(0);

    assertEquals(9_000, first.receivedAt());
    assertEquals(9_000, second.receivedAt(), "a clock that stepped back does not take the stamps back");
    assertEquals(List.of(), second.created());
    assertEquals(OptionalLong.empty(), second.feedsBefore());
    assertEquals(Optional.empty(), second.namespaces().get(feed));
    assertEquals(Position.of(1), second.before());
  }

  @Test
  void anAppendTellsTheFirstBlockWhoseKeyIsHeldAlready() {
    FeedId feed = TestBlocks.feedId();
    java.util.Map<FeedId, Optional<Namespace>> feeds = java.util.Map.of(feed, Optional.empty());
    store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE, feeds, List.of(TestBlocks.block(feed, "a", 0)), 1))));

    int again = store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE, feeds,
        List.of(TestBlocks.block(feed, "a", 1), TestBlocks.block(feed, "a", 0)), 1))).get(0).held());
    int twice = store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE, feeds,
        List.of(TestBlocks.block(feed, "b", 0), TestBlocks.block(feed, "b", 0)), 1))).get(0).held());

    assertEquals(1, again, "stored by an earlier transaction");
    assertEquals(1, twice, "stored by the same append");
  }

  @Test
  void anAppendOfOnlyNewKeysWithinTheFeedLimitCommitsOrIsDeclinedAndAnyOtherStoresNothing() {
    FeedId feed = TestBlocks.feedId();
    FeedId other = TestBlocks.feedId();
    java.util.Map<FeedId, Optional<Namespace>> feeds = java.util.Map.of(feed, Optional.empty());
    List<SpaceAppend.Stored> first = appendAllNewOrAlone(List.of(new SpaceAppend(SPACE, feeds,
        List.of(TestBlocks.block(feed, "a", 0)), 1)), 1);
    assertEquals(List.of(feed), first.get(0).created());

    Optional<List<SpaceAppend.Stored>> held = store.appendAllNew(List.of(
        new SpaceAppend(SPACE, feeds, List.of(TestBlocks.block(feed, "a", 1), TestBlocks.block(feed, "a", 0)), 2),
        new SpaceAppend(OTHER_SPACE, java.util.Map.of(other, Optional.empty()),
            List.of(TestBlocks.block(other, "b", 0)), 2)), 10);
    java.util.Map<FeedId, Optional<Namespace>> two = new java.util.LinkedHashMap<>(feeds);
    two.put(other, Optional.empty());
    Optional<List<SpaceAppend.Stored>> beyond = store.appendAllNew(List.of(new SpaceAppend(SPACE, two,
        List.of(TestBlocks.block(feed, "a", 1), TestBlocks.block(other, "c", 0)), 3)), 1);

    assertEquals(Optional.empty(), held, "a key stored already");
    assertEquals(Optional.empty(), beyond, "two feeds where one is the limit");
    assertEquals(Position.of(1), store.read(tx -> tx.blocks().maxPosition(SPACE)), "nothing of either stored");
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().maxPosition(OTHER_SPACE)),
        "nor the other space's blocks of the refused call");
    assertEquals(1L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    List<SpaceAppend.Stored> within = appendAllNewOrAlone(List.of(new SpaceAppend(SPACE, two,
        List.of(TestBlocks.block(feed, "a", 1), TestBlocks.block(other, "c", 0)), 3)), 2);
    assertEquals(Position.of(1), within.get(0).before());
    assertEquals(List.of(other), within.get(0).created());
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().maxPosition(SPACE)));
  }

  /**
   * What {@link AuthorityStore#appendAllNew} stored of {@code appends}, all new and within the limit;
   * or, when the store declined the call (the default) and stored nothing, what the caller's own
   * transaction then stores, as the authority runs it.
   */
  private List<SpaceAppend.Stored> appendAllNewOrAlone(List<SpaceAppend> appends, long feedsPerSpace) {
    Optional<List<SpaceAppend.Stored>> stored = store.appendAllNew(appends, feedsPerSpace);
    if (stored.isPresent()) {
      return stored.get();
    }
    for (SpaceAppend append : appends) {
      for (Block block : append.blocks()) {
        assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(append.spaceId(), block.key())),
            "a declined call stores nothing");
      }
    }
    return store.write(tx -> tx.append(appends));
  }

  @Test
  void anAppendAfterCompactionChainsFromTheFloor() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    Block one = positioned(feed, "a", 0, 1);
    Block two = positioned(feed, "a", 1, 2);
    long[] chains = {HistoryChain.next(HistoryChain.START, one), 0};
    chains[1] = HistoryChain.next(chains[0], two);
    store.write(tx -> tx.blocks().claimPositions(SPACE, 2));
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(one, two), chains));
    assertEquals(2, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(2), 10)));

    Block three = TestBlocks.block(feed, "a", 2);
    SpaceAppend.Stored stored = store.write(tx -> tx.append(List.of(new SpaceAppend(SPACE,
        java.util.Map.of(feed, Optional.empty()), List.of(three), 1)))).get(0);

    assertEquals(Position.of(2), stored.before());
    assertEquals(HistoryChain.next(chains[1], three.withPosition(Position.of(3)).withReceivedAt(stored.receivedAt())),
        stored.chains()[0]);
  }

  @Test
  void compactionRemovesTheLowestBlocksInSmallStepsAndRaisesTheFloor() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    FeedId other = createFeed(SPACE, Optional.empty());
    List<Block> blocks = new ArrayList<>();
    long chain = HistoryChain.START;
    long[] chains = new long[10];
    for (int i = 0; i < 10; i++) {
      Block block = positioned(i % 2 == 0 ? feed : other, "a", i / 2, i + 1);
      chain = HistoryChain.next(chain, block);
      chains[i] = chain;
      blocks.add(block);
    }
    store.write(tx -> tx.blocks().claimPositions(SPACE, 10));
    store.write(tx -> tx.blocks().insertAll(SPACE, blocks, chains));
    assertEquals(SpaceFloor.NONE, store.read(tx -> tx.blocks().floor(SPACE)));

    assertEquals(4, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(6), 4)));
    SpaceFloor floor = store.read(tx -> tx.blocks().floor(SPACE));
    assertEquals(Position.of(4), floor.position());
    assertEquals(Optional.of(blocks.get(3).key()), floor.key());
    assertEquals(OptionalLong.of(chains[3]), floor.chain());
    assertEquals(List.of(5L, 6L, 7L, 8L, 9L, 10L), positions(readAfter(Scope.WHOLE_SPACE, 0, 100)));

    assertEquals(2, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(6), 4)), "the rest up to 6");
    assertEquals(0, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(6), 4)));
    assertEquals(0, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(3), 4)), "never down");
    assertEquals(Position.of(6), store.read(tx -> tx.blocks().floor(SPACE)).position());
    assertEquals(OptionalLong.of(chains[5]), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(6))),
        "the chain at the floor is kept");
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(5))));
    assertEquals(2, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    assertEquals(2, store.read(tx -> tx.feeds().find(SPACE, other)).orElseThrow().blockCount());
    assertEquals(Position.of(10), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(SpaceFloor.NONE, store.read(tx -> tx.blocks().floor(OTHER_SPACE)), "a floor per space");
    assertThrows(IllegalArgumentException.class, () -> store.write(tx -> tx.blocks().compact(SPACE, Position.of(9), 0)));
    assertThrows(IllegalStateException.class, () -> store.read(tx -> tx.blocks().compact(SPACE, Position.of(9), 1)));
  }

  @Test
  void compactingEveryBlockKeepsTheHighestPositionAndTheCounter() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    store.write(tx -> tx.blocks().claimPositions(SPACE, 3));
    for (int i = 0; i < 3; i++) {
      insert(SPACE, positioned(feed, "a", i, i + 1));
    }
    assertEquals(3, store.<Integer>write(tx -> tx.blocks().compact(SPACE, Position.of(100), 10)));
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().floor(SPACE)).position(), "the floor stops at the last block");
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(Position.of(3), store.write(tx -> tx.blocks().claimPositions(SPACE, 1)), "positions go on above it");
    insert(SPACE, positioned(feed, "a", 3, 4));
    assertEquals(List.of(4L), positions(readAfter(Scope.WHOLE_SPACE, 0, 10)));
    assertEquals(0, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount() - 1);
  }

  @Test
  void aCompactionThatFailsLeavesBlocksAndFloorAsTheyWere() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    for (int i = 0; i < 3; i++) {
      insert(SPACE, positioned(feed, "a", i, i + 1));
    }
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      tx.blocks().compact(SPACE, Position.of(2), 10);
      throw new IllegalStateException("rolled back");
    }));
    assertEquals(SpaceFloor.NONE, store.read(tx -> tx.blocks().floor(SPACE)));
    assertEquals(List.of(1L, 2L, 3L), positions(readAfter(Scope.WHOLE_SPACE, 0, 10)));
    assertEquals(3, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
  }

  @Test
  void aSpacesRetentionIsStoredAndTellsWhatItLetsGoOf() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    // positions 1..10, received at 1000, 2000, ... 10000 (their authors' clocks say otherwise), data
    // of 10 bytes each
    for (int i = 0; i < 10; i++) {
      Block block = new Block(TestBlocks.key(feed, "a", i),
          i == 0 ? Optional.empty() : Optional.of(new Predecessor(new dev.feedstore.core.ActorId("a"), new Sequence(i - 1))),
          50_000L - i, TestBlocks.bytes(10), Position.of(i + 1), OptionalLong.of((i + 1) * 1000L));
      insert(SPACE, block);
    }
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().retention(SPACE)));
    Retention byCount = Retention.of(4, 0, 0);
    store.write(tx -> {
      tx.blocks().setRetention(SPACE, Optional.of(byCount));
      return null;
    });
    assertEquals(Optional.of(byCount), store.read(tx -> tx.blocks().retention(SPACE)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().retention(OTHER_SPACE)));

    assertEquals(Position.of(6), store.read(tx -> tx.blocks().retentionCut(SPACE, byCount, 0)), "keeps 7..10");
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(0, 7000, 0), 11_000)),
        "keeps from the first block received at or after 4000");
    assertEquals(Position.of(10), store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(0, 1, 0), 20_000)),
        "every block is older");
    assertEquals(Position.of(7), store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(0, 0, 35), 0)),
        "the newest three blocks' 30 bytes fit in 35");
    assertEquals(Position.of(7), store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(4, 7000, 35), 11_000)),
        "whichever bound lets go of most");
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.KEEP_ALL, 11_000)));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(100, 0, 0), 0)));

    store.write(tx -> {
      tx.blocks().setRetention(SPACE, Optional.empty());
      return null;
    });
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().retention(SPACE)), "back to the server's default");
    assertThrows(dev.feedstore.core.InvalidValueException.class,
        () -> new Retention(OptionalLong.of(0), OptionalLong.empty(), OptionalLong.empty()));
  }

  @Test
  void positionsAreClaimedFromEachSpacesCounterInOrder() {
    assertEquals(Position.NONE, store.write(tx -> tx.blocks().claimPositions(SPACE, 0)));
    assertEquals(Position.NONE, store.write(tx -> tx.blocks().claimPositions(SPACE, 3)), "1 to 3");
    assertEquals(Position.of(3), store.write(tx -> tx.blocks().claimPositions(SPACE, 2)), "4 and 5");
    assertEquals(Position.NONE, store.write(tx -> tx.blocks().claimPositions(OTHER_SPACE, 1)), "a counter per space");
    assertEquals(Position.of(7), store.write(tx -> {
      assertEquals(Position.of(5), tx.blocks().claimPositions(SPACE, 2));
      return tx.blocks().claimPositions(SPACE, 0);
    }), "a transaction sees its own claims");
    assertEquals(Position.of(7), store.write(tx -> tx.blocks().claimPositions(SPACE, 0)));
    assertEquals(Position.of(1), store.write(tx -> tx.blocks().claimPositions(OTHER_SPACE, 0)));
    assertThrows(IllegalArgumentException.class, () -> store.write(tx -> tx.blocks().claimPositions(SPACE, -1)));
    assertThrows(IllegalStateException.class, () -> store.read(tx -> tx.blocks().claimPositions(SPACE, 1)));
  }

  @Test
  void aClaimRollsBackWithItsTransactionAndBurnsNoPosition() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    store.write(tx -> tx.blocks().claimPositions(SPACE, 1));
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      long next = tx.blocks().claimPositions(SPACE, 5).value() + 1;
      tx.blocks().insert(SPACE, positioned(feed, "a", 0, next));
      throw new IllegalStateException("rolled back");
    }));
    assertEquals(Position.of(1), store.write(tx -> tx.blocks().claimPositions(SPACE, 1)));
  }

  @Test
  void claimingAndStoringAtTheClaimedPositionsCommitTogether() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    List<Block> stored = store.write(tx -> {
      long first = tx.blocks().claimPositions(SPACE, 3).value() + 1;
      List<Block> blocks = List.of(positioned(feed, "a", 0, first), positioned(feed, "a", 1, first + 1),
          positioned(feed, "a", 2, first + 2));
      tx.blocks().insertAll(SPACE, blocks);
      return blocks;
    });
    assertEquals(stored, readAfter(Scope.WHOLE_SPACE, 0, 10));
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().maxPosition(SPACE)));
    assertEquals(Position.of(3), store.write(tx -> tx.blocks().claimPositions(SPACE, 0)));
  }

  @Test
  void claimingPositionsOfANewSpaceServesNoSpace() {
    SpaceId fresh = new SpaceId("fresh");
    store.write(tx -> tx.blocks().claimPositions(fresh, 2));
    assertEquals(0L, store.<Long>read(tx -> tx.serverTokens().count()), "a space is served once its token is stored");
    assertEquals(List.of(), store.read(tx -> tx.feeds().spaces()));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().maxPosition(fresh)), "nothing is stored at a claim");
  }

  @Test
  void concurrentWritersClaimDenseRangesThatNeverOverlap() throws Exception {
    int writers = 4;
    int claimsEach = 50;
    int count = 3;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<List<Long>>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        results.add(pool.submit(() -> {
          List<Long> firsts = new ArrayList<>();
          for (int i = 0; i < claimsEach; i++) {
            firsts.add(store.write(tx -> tx.blocks().claimPositions(SPACE, count)).value() + 1);
          }
          return firsts;
        }));
      }
      SortedSet<Long> claimed = new TreeSet<>();
      for (Future<List<Long>> result : results) {
        for (long first : result.get()) {
          for (long p = first; p < first + count; p++) {
            assertTrue(claimed.add(p), "position " + p + " was claimed twice");
          }
        }
      }
      assertEquals(LongStream.rangeClosed(1, (long) writers * claimsEach * count).boxed().toList(),
          List.copyOf(claimed));
    } finally {
      pool.shutdownNow();
    }
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
      tx.blocks().setChain(SPACE, Position.of(1), 7L);
      tx.blocks().claimPositions(SPACE, 2);
      tx.serverTokens().findOrCreate(OTHER_SPACE);
      tx.subscriptions().create(new Subscription("sub-1", SPACE, new Scope.Selection(Set.of(feed), Set.of()), 1_000, 2_000));
      throw boom;
    }));
    assertEquals(boom, thrown);
    assertEquals(List.of(positioned(feed, "a", 0, 1)), readAfter(Scope.WHOLE_SPACE, 0, 10));
    assertEquals(1, store.read(tx -> tx.feeds().list(SPACE, Optional.empty())).size());
    assertEquals(1L, store.<Long>read(tx -> tx.feeds().count(SPACE)));
    assertEquals(Optional.empty(), store.read(tx -> tx.serverTokens().find(OTHER_SPACE)));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().find("sub-1")));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.blocks().chainAt(SPACE, Position.of(1))));
    assertEquals(1, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount());
    assertEquals(Position.NONE, store.write(tx -> tx.blocks().claimPositions(SPACE, 0)));
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
    assertEquals(List.of(1L), positions(readAfter(Scope.WHOLE_SPACE, 0, 10)));
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
    assertEquals(2L, store.<Long>read(tx -> tx.subscriptions().countUnexpired(SPACE, 999)));
    assertEquals(1L, store.<Long>read(tx -> tx.subscriptions().countUnexpired(SPACE, 1_000)), "expiring at 1,000 is expired then");
    assertEquals(0L, store.<Long>read(tx -> tx.subscriptions().countUnexpired(OTHER_SPACE, 0)));
    assertTrue(store.<Boolean>write(tx -> tx.subscriptions().setExpiry("sub-1", 9_000)));
    assertFalse(store.<Boolean>write(tx -> tx.subscriptions().setExpiry("nope", 9_000)));
    assertEquals(1, store.<Integer>write(tx -> tx.subscriptions().purgeExpired(1_000, 1_000)));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().find("sub-2")));
    assertEquals(9_000, store.read(tx -> tx.subscriptions().find("sub-1")).orElseThrow().expiresAtMillis());
  }

  @Test
  void durableSubscriptionsKeepTheirAcknowledgedPositionAndName() {
    FeedId feed = TestBlocks.feedId();
    Subscription named = new Subscription("dur-1", SPACE, new Scope.Selection(Set.of(feed), Set.of(DATA)), 3_000, 5_000,
        Optional.of(new Subscription.Durable(Optional.of("worker"), 0)));
    Subscription unnamed = new Subscription("dur-2", SPACE, new Scope.Selection(Set.of(), Set.of(TRACE)), 3_000, 5_000,
        Optional.of(new Subscription.Durable(Optional.empty(), 4)));
    store.write(tx -> {
      tx.subscriptions().create(named);
      tx.subscriptions().create(unnamed);
      tx.subscriptions().create(new Subscription("plain", SPACE, new Scope.Selection(Set.of(feed), Set.of()), 3_000, 5_000));
      return null;
    });
    assertEquals(Optional.of(named), store.read(tx -> tx.subscriptions().find("dur-1")));
    assertEquals(Optional.of(named), store.read(tx -> tx.subscriptions().findDurable(SPACE, "worker")));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().findDurable(OTHER_SPACE, "worker")));
    assertEquals(List.of(named, unnamed), store.read(tx -> tx.subscriptions().durables(SPACE)));
    assertEquals(OptionalLong.of(0), store.read(tx -> tx.subscriptions().lowestAck(SPACE, 1_000)));

    assertTrue(store.<Boolean>write(tx -> tx.subscriptions().ack("dur-1", 7, 8_000)));
    assertTrue(store.<Boolean>write(tx -> tx.subscriptions().ack("dur-1", 6, 9_000)), "a lower ack moves the expiry only");
    assertEquals(new Subscription.Durable(Optional.of("worker"), 7),
        store.read(tx -> tx.subscriptions().find("dur-1")).orElseThrow().durable().orElseThrow());
    assertEquals(9_000, store.read(tx -> tx.subscriptions().find("dur-1")).orElseThrow().expiresAtMillis());
    assertFalse(store.<Boolean>write(tx -> tx.subscriptions().ack("plain", 7, 9_000)), "not durable");
    assertFalse(store.<Boolean>write(tx -> tx.subscriptions().ack("nope", 7, 9_000)));
    assertEquals(OptionalLong.of(4), store.read(tx -> tx.subscriptions().lowestAck(SPACE, 1_000)));
    assertEquals(OptionalLong.of(7), store.read(tx -> tx.subscriptions().lowestAck(SPACE, 5_000)),
        "an expired one holds nothing");
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.subscriptions().lowestAck(SPACE, 9_000)));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.subscriptions().lowestAck(OTHER_SPACE, 0)));

    assertEquals(1, store.<Integer>write(tx -> tx.subscriptions().purgeExpired(6_000, 4_000)),
        "the plain one goes; the expired durable one is remembered a while");
    assertTrue(store.read(tx -> tx.subscriptions().find("dur-2")).isPresent());
    assertEquals(1, store.<Integer>write(tx -> tx.subscriptions().purgeExpired(6_000, 5_000)));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().find("dur-2")));
    assertTrue(store.read(tx -> tx.subscriptions().find("dur-1")).isPresent());
  }

  @Test
  void aDurableSubscriptionNameIsUniqueInItsSpace() {
    Scope.Selection scope = new Scope.Selection(Set.of(), Set.of(DATA));
    Optional<Subscription.Durable> worker = Optional.of(new Subscription.Durable(Optional.of("worker"), 0));
    store.write(tx -> {
      tx.subscriptions().create(new Subscription("a", SPACE, scope, 1_000, 2_000, worker));
      tx.subscriptions().create(new Subscription("b", OTHER_SPACE, scope, 1_000, 2_000, worker));
      return null;
    });
    assertThrows(StoreException.class, () -> store.write(tx -> {
      tx.subscriptions().create(new Subscription("c", SPACE, scope, 1_000, 2_000, worker));
      return null;
    }));
    assertEquals(Optional.empty(), store.read(tx -> tx.subscriptions().find("c")));

    assertTrue(store.<Boolean>write(tx -> tx.subscriptions().delete("a")));
    assertFalse(store.<Boolean>write(tx -> tx.subscriptions().delete("a")));
    store.write(tx -> {
      tx.subscriptions().create(new Subscription("c", SPACE, scope, 1_000, 2_000, worker));
      return null;
    });
    assertEquals("c", store.read(tx -> tx.subscriptions().findDurable(SPACE, "worker")).orElseThrow().id(),
        "a deleted one's name is free");
  }

  @Test
  void aBlockWhoseStoredBytesChangedFailsEveryReadOfItNamingItsKey() throws Exception {
    FeedId feed = createFeed(SPACE, Optional.of(DATA));
    Block first = positioned(feed, "a", 0, 1);
    Block second = after(first, "a", 1).withPosition(Position.of(2));
    store.write(tx -> tx.blocks().insertAll(SPACE, List.of(first, second)));
    flipABitOfStoredData(SPACE, second.key());

    List<AuthorityStore.Work<AuthorityTransaction, ?>> reads = List.of(
        tx -> tx.blocks().find(SPACE, second.key()),
        tx -> tx.blocks().atPosition(SPACE, Position.of(2)),
        tx -> tx.blocks().after(SPACE, Scope.WHOLE_SPACE, Position.NONE, 10),
        tx -> tx.blocks().after(SPACE, Scope.namespace(DATA), Position.of(1), 1));
    for (AuthorityStore.Work<AuthorityTransaction, ?> read : reads) {
      CorruptBlockException e = assertThrows(CorruptBlockException.class, () -> store.read(read));
      assertCorrupt(e, second, Position.of(2));
    }
    assertCorrupt(assertThrows(CorruptBlockException.class, () -> insert(SPACE, second.withPosition(Position.of(3)))),
        second, Position.of(2));
  }

  /** {@code e} names the block under {@code block}'s key at {@code position}, and its checksum. */
  protected static void assertCorrupt(CorruptBlockException e, Block block, Position position) {
    assertEquals(SPACE, e.spaceId());
    assertEquals(block.key(), e.key());
    assertEquals(position, e.position());
    for (String part : List.of("space " + SPACE.value(), "feed " + block.feedId(), "actor " + block.actorId().value(),
        "sequence " + block.sequence().value(), position.isAssigned() ? "position " + position : "unpositioned",
        "checksum")) {
      assertTrue(e.getMessage().contains(part), e.getMessage());
    }
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
    assertEquals(List.of(3L), positions(store.read(tx ->
        tx.blocks().after(OTHER_SPACE, Scope.WHOLE_SPACE, Position.NONE, 10))));
    assertEquals(Optional.of(Position.of(4)),
        store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(4))).map(Block::position));
    assertEquals(3, store.read(tx -> tx.feeds().find(SPACE, feed)).orElseThrow().blockCount(),
        "a feed's count does not read its blocks");
  }

  @Test
  void aSpacesReceiveStampNeverGoesBackAndEverySpaceHasItsOwn() {
    store.write(tx -> tx.blocks().claimPositions(SPACE, 1));
    assertEquals(5_000, stamp(SPACE, 5_000));
    assertEquals(5_000, stamp(SPACE, 3_000), "a clock that stepped back gets the last stamp");
    assertEquals(7_000, stamp(SPACE, 7_000));
    assertEquals(1_000, stamp(OTHER_SPACE, 1_000), "another space");
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      tx.blocks().stampReceipt(SPACE, 9_000);
      throw new IllegalStateException("rolled back");
    }));
    assertEquals(7_000, stamp(SPACE, 0), "a rolled back stamp is not kept");
    assertThrows(IllegalStateException.class, () -> store.read(tx -> tx.blocks().stampReceipt(SPACE, 1)));
  }

  private long stamp(SpaceId space, long now) {
    Long stamp = store.write(tx -> tx.blocks().stampReceipt(space, now));
    return stamp;
  }

  @Test
  void receiveTimesAreStoredWithTheBlocksAndResolveTimesToPositions() {
    FeedId feed = createFeed(SPACE, Optional.empty());
    long[] received = {100, 100, 200, 300, 300};
    for (int i = 0; i < received.length; i++) {
      insert(SPACE, positioned(feed, "a", i, i + 1).withReceivedAt(received[i]));
    }
    assertEquals(List.of(100L, 100L, 200L, 300L, 300L), readAfter(Scope.WHOLE_SPACE, 0, 10).stream()
        .map(b -> b.receivedAt().orElseThrow()).toList());
    assertEquals(OptionalLong.of(200), store.read(tx -> tx.blocks().atPosition(SPACE, Position.of(3)))
        .orElseThrow().receivedAt());
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 100)), "nothing before");
    assertEquals(Position.of(2), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 101)));
    assertEquals(Position.of(2), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 200)));
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 201)));
    assertEquals(Position.of(5), store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, Long.MAX_VALUE)));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().lastReceivedBefore(OTHER_SPACE, Long.MAX_VALUE)));
    assertEquals(Optional.of(Position.of(4)), store.read(tx -> tx.blocks().firstSince(SPACE, 201)));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().firstSince(SPACE, 301)));

    store.write(tx -> tx.blocks().compact(SPACE, Position.of(3), 10));
    assertEquals(Position.NONE, store.read(tx -> tx.blocks().lastReceivedBefore(SPACE, 250)),
        "removed blocks are not looked at");
    assertEquals(Optional.of(Position.of(4)), store.read(tx -> tx.blocks().firstSince(SPACE, 0)));
  }

  @Test
  void firstSinceFindsNothingWhereTheSpaceHoldsNoBlocks() {
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().firstSince(OTHER_SPACE, 0)), "a space never stored");
    store.write(tx -> {
      tx.blocks().setRetention(OTHER_SPACE, Optional.of(Retention.of(1, 0, 0)));
      return null;
    });
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().firstSince(OTHER_SPACE, 0)), "a space with no blocks");

    FeedId feed = createFeed(SPACE, Optional.empty());
    for (int i = 0; i < 3; i++) {
      insert(SPACE, positioned(feed, "a", i, i + 1).withReceivedAt(100L * (i + 1)));
    }
    store.write(tx -> tx.blocks().compact(SPACE, Position.of(3), 10));
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().firstSince(SPACE, 0)), "every block removed");
    assertEquals(Position.of(3), store.read(tx -> tx.blocks().retentionCut(SPACE, Retention.of(0, 1, 0), 1_000)),
        "nothing above the floor to let go of");
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
