package dev.feedstore.core.store;

import static dev.feedstore.core.testing.TestBlocks.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.StreamName;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of the Durable Streams records every authority store that serves streams must have
 * ({@link StreamCatalog}, {@link AuthorityTransaction#streams}). A store's test extends this class
 * and says how to open a fresh store.
 */
public abstract class StreamCatalogContract {
  protected static final SpaceId SPACE = new SpaceId("streams");

  protected AuthorityStore<?> store;

  /** A new, empty store. */
  protected abstract AuthorityStore<?> openFreshStore() throws Exception;

  @BeforeEach
  void openStore() throws Exception {
    store = openFreshStore();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  /** A live record of {@code name} without TTL or fork, as a stream created at {@code touched} has. */
  public static StreamRecord draft(String name, long generation, OptionalLong ttl, long touched) {
    return new StreamRecord(0, SPACE, name, generation, StreamName.of(name).feedId(generation), "text/plain", touched,
        ttl, OptionalLong.empty(), touched, OptionalLong.empty(), 0, 0, OptionalLong.empty(), Optional.empty(),
        Optional.empty(), StreamRecord.State.LIVE);
  }

  @Test
  void aStoredRecordIsFoundByNameAndIdWithEveryField() {
    StreamRecord stored = store.write(tx -> {
      long source = tx.streams().insert(draft("a/source", 0, OptionalLong.empty(), 1_000));
      StreamRecord fork = new StreamRecord(0, SPACE, "a/fork", 0, StreamName.of("a/fork").feedId(0),
          "application/json; charset=utf-8", 2_000, OptionalLong.of(60), OptionalLong.of(90_000), 2_500,
          OptionalLong.of(source), 17, 3, OptionalLong.empty(), Optional.empty(), Optional.empty(),
          StreamRecord.State.LIVE);
      long id = tx.streams().insert(fork);
      StreamRecord closed = fork.withId(id).withClosed(42, Optional.of(new ProducerMark("p-1", 2, 7)))
          .withStreamSeq("0009").withTouchedAt(3_000);
      tx.streams().update(closed);
      return closed;
    });
    assertEquals(Optional.of(stored), store.read(tx -> tx.streams().find(SPACE, "a/fork")));
    assertEquals(Optional.of(stored), store.read(tx -> tx.streams().get(stored.id())));
    assertEquals(Optional.empty(), store.read(tx -> tx.streams().find(new SpaceId("elsewhere"), "a/fork")));
  }

  @Test
  void aGoneNameIsFreeForTheNextGenerationAndTheOldRecordStays() {
    long first = store.write(tx -> tx.streams().insert(draft("x", 0, OptionalLong.empty(), 1)));
    assertEquals(1L, (long) store.read(tx -> tx.streams().nextGeneration(SPACE, "x")));
    store.write(tx -> {
      tx.streams().update(tx.streams().get(first).orElseThrow().withState(StreamRecord.State.GONE));
      return null;
    });
    assertEquals(Optional.empty(), store.read(tx -> tx.streams().find(SPACE, "x")));
    long second = store.write(tx -> tx.streams().insert(draft("x", 1, OptionalLong.empty(), 2)));
    assertEquals(second, store.read(tx -> tx.streams().find(SPACE, "x")).orElseThrow().id());
    assertEquals(StreamRecord.State.GONE, store.read(tx -> tx.streams().get(first)).orElseThrow().state());
    assertEquals(1L, (long) store.read(tx -> tx.streams().countNotGone(SPACE)));
  }

  @Test
  void theRecordsOfFeedsAreFoundWhateverTheirState() {
    long live = store.write(tx -> tx.streams().insert(draft("live", 0, OptionalLong.empty(), 1)));
    long gone = store.write(tx -> {
      long id = tx.streams().insert(draft("gone", 0, OptionalLong.empty(), 1));
      tx.streams().update(tx.streams().get(id).orElseThrow().withState(StreamRecord.State.GONE));
      return id;
    });
    store.write(tx -> tx.streams().insert(draft("unasked", 0, OptionalLong.empty(), 1)));
    Set<FeedId> asked = Set.of(StreamName.of("live").feedId(0), StreamName.of("gone").feedId(0),
        StreamName.of("never").feedId(0));

    assertEquals(Set.of(live, gone), store.read(tx -> tx.streams().ofFeeds(SPACE, asked)).stream()
        .map(StreamRecord::id).collect(Collectors.toSet()));
    assertEquals(List.of(), store.read(tx -> tx.streams().ofFeeds(new SpaceId("elsewhere"), asked)));
    assertEquals(List.of(), store.read(tx -> tx.streams().ofFeeds(SPACE, Set.of())));
  }

  @Test
  void twoRecordsOfOneNameThatAreNotGoneAreRefused() {
    store.write(tx -> tx.streams().insert(draft("twice", 0, OptionalLong.empty(), 1)));
    assertThrows(UniquenessViolationException.class,
        () -> store.write(tx -> tx.streams().insert(draft("twice", 1, OptionalLong.empty(), 2))));
    assertEquals(1L, (long) store.read(tx -> tx.streams().countNotGone(SPACE)));
  }

  @Test
  void producerStateIsPerStreamAndReplaced() {
    long a = store.write(tx -> tx.streams().insert(draft("a", 0, OptionalLong.empty(), 1)));
    long b = store.write(tx -> tx.streams().insert(draft("b", 0, OptionalLong.empty(), 1)));
    store.write(tx -> {
      tx.streams().putProducer(a, new ProducerMark("p", 0, 0));
      tx.streams().putProducer(a, new ProducerMark("p", 1, 4));
      tx.streams().putProducer(b, new ProducerMark("p", 0, 9));
      return null;
    });
    assertEquals(Optional.of(new ProducerMark("p", 1, 4)), store.read(tx -> tx.streams().producer(a, "p")));
    assertEquals(Optional.of(new ProducerMark("p", 0, 9)), store.read(tx -> tx.streams().producer(b, "p")));
    assertEquals(Optional.empty(), store.read(tx -> tx.streams().producer(a, "q")));
  }

  @Test
  void forksNotGoneCountsLiveAndDeletedForksOfARecord() {
    long source = store.write(tx -> tx.streams().insert(draft("src", 0, OptionalLong.empty(), 1)));
    store.write(tx -> {
      for (String name : new String[] {"f1", "f2", "f3"}) {
        StreamRecord fork = draft(name, 0, OptionalLong.empty(), 1);
        long id = tx.streams().insert(new StreamRecord(0, SPACE, name, 0, fork.feedId(), "text/plain", 1,
            OptionalLong.empty(), OptionalLong.empty(), 1, OptionalLong.of(source), 0, 0, OptionalLong.empty(),
            Optional.empty(), Optional.empty(), StreamRecord.State.LIVE));
        if (name.equals("f2")) {
          tx.streams().update(tx.streams().get(id).orElseThrow().withState(StreamRecord.State.DELETED));
        }
        if (name.equals("f3")) {
          tx.streams().update(tx.streams().get(id).orElseThrow().withState(StreamRecord.State.GONE));
        }
      }
      return null;
    });
    assertEquals(2L, (long) store.read(tx -> tx.streams().forksNotGone(source)));
  }

  @Test
  void maxSequenceAndLastPositionAreTheFeedsOwn() {
    FeedId feed = StreamName.of("seq").feedId(0);
    FeedId other = StreamName.of("other").feedId(0);
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.streams().maxSequence(SPACE, feed)));
    assertEquals(OptionalLong.empty(), store.read(tx -> tx.streams().lastPosition(SPACE, feed)));
    store.write(tx -> {
      tx.serverTokens().findOrCreate(SPACE);
      tx.feeds().create(SPACE, feed, Optional.empty());
      tx.feeds().create(SPACE, other, Optional.empty());
      tx.blocks().claimPositions(SPACE, 3);
      tx.blocks().insert(SPACE, positioned(feed, "http", 4, 1));
      tx.blocks().insert(SPACE, positioned(feed, "replica", 2, 2));
      tx.blocks().insert(SPACE, positioned(other, "http", 9, 3));
      return null;
    });
    assertEquals(OptionalLong.of(4), store.read(tx -> tx.streams().maxSequence(SPACE, feed)));
    assertEquals(OptionalLong.of(2), store.read(tx -> tx.streams().lastPosition(SPACE, feed)));
    assertEquals(OptionalLong.of(3), store.read(tx -> tx.streams().lastPosition(SPACE, other)));
  }

  @Test
  void maxSequenceNeverGoesBackWhenRetentionRemovesTheFeedsBlocks() {
    FeedId feed = StreamName.of("compacted").feedId(0);
    FeedId other = StreamName.of("other").feedId(0);
    appendPositioned(positioned(feed, "http", 0, 1), positioned(feed, "replica", 7, 2), positioned(feed, "http", 3, 3),
        positioned(other, "http", 0, 4));

    assertEquals(2, (int) store.write(tx -> tx.blocks().compact(SPACE, Position.of(2), 10)));
    assertEquals(OptionalLong.of(7), store.read(tx -> tx.streams().maxSequence(SPACE, feed)),
        "the removed sequence 7 is above the stored 3");
    assertEquals(1, (int) store.write(tx -> tx.blocks().compact(SPACE, Position.of(3), 10)));
    assertEquals(OptionalLong.of(7), store.read(tx -> tx.streams().maxSequence(SPACE, feed)),
        "with none of its blocks left the feed keeps its highest sequence");
    assertEquals(OptionalLong.of(0), store.read(tx -> tx.streams().maxSequence(SPACE, other)));
    appendPositioned(positioned(feed, "http", 8, 5));
    assertEquals(1, (int) store.write(tx -> tx.blocks().compact(SPACE, Position.of(4), 10)));
    assertEquals(OptionalLong.of(8), store.read(tx -> tx.streams().maxSequence(SPACE, feed)));
  }

  @Test
  void removedUpToIsTheHighestPositionRetentionTookFromTheFeed() {
    FeedId feed = StreamName.of("kept").feedId(0);
    FeedId other = StreamName.of("other").feedId(0);
    appendPositioned(positioned(feed, "http", 0, 1), positioned(other, "http", 0, 2), positioned(feed, "http", 1, 3),
        positioned(other, "http", 1, 4));
    assertEquals(0L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, feed)));

    assertEquals(3, (int) store.write(tx -> tx.blocks().compact(SPACE, Position.of(3), 10)));
    assertEquals(3L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, feed)));
    assertEquals(2L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, other)));
    assertEquals(1, (int) store.write(tx -> tx.blocks().compact(SPACE, Position.of(4), 10)));
    assertEquals(3L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, feed)), "a feed keeps what it lost");
    assertEquals(4L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, other)));
    assertEquals(0L, (long) store.read(tx -> tx.streams().removedUpTo(SPACE, StreamName.of("none").feedId(0))));
  }

  /**
   * Stores {@code blocks} as an append does, creating their feeds: their positions must be the next
   * ones of the space, in order.
   */
  private void appendPositioned(Block... blocks) {
    store.write(tx -> {
      tx.serverTokens().findOrCreate(SPACE);
      tx.blocks().claimPositions(SPACE, blocks.length);
      for (Block block : blocks) {
        tx.feeds().create(SPACE, block.feedId(), Optional.empty());
        tx.blocks().insert(SPACE, block);
      }
      return null;
    });
  }

  @Test
  void recordsRollBackWithTheWriteThatFailed() {
    assertThrows(IllegalStateException.class, () -> store.write(tx -> {
      long id = tx.streams().insert(draft("rolled-back", 0, OptionalLong.empty(), 1));
      tx.streams().putProducer(id, new ProducerMark("p", 0, 0));
      throw new IllegalStateException("the append failed");
    }));
    assertEquals(Optional.empty(), store.read(tx -> tx.streams().find(SPACE, "rolled-back")));
    assertEquals(0L, (long) store.read(tx -> tx.streams().countNotGone(SPACE)));
  }
}
