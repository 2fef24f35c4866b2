package dev.feedstore.server.internal.spaces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SpaceTailTest {
  final FeedId feed = TestBlocks.feedId();
  final Map<FeedId, Optional<Namespace>> namespaces = Map.of(feed, Optional.of(Namespace.of("data")));

  List<Block> blocks(long from, long to) {
    List<Block> out = new ArrayList<>();
    for (long p = from; p <= to; p++) {
      out.add(TestBlocks.positioned(feed, "a", p, p));
    }
    return out;
  }

  static List<Long> positions(SpaceTail.Slice slice) {
    return slice.entries().stream().map(TailEntry::position).toList();
  }

  @Test
  void withoutWatchersNothingIsHeldButTheCommittedPositionMoves() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);

    tail.publish(blocks(1, 3), namespaces, 3);

    assertEquals(3, tail.committed());
    assertTrue(tail.read(0, 10, 1 << 20).behind());
  }

  @Test
  void watchersAreSignalledAndReadWhatFollowsTheirPosition() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);
    AtomicInteger signals = new AtomicInteger();
    tail.register(signals::incrementAndGet);

    tail.publish(blocks(1, 4), namespaces, 4);

    assertEquals(1, signals.get());
    SpaceTail.Slice slice = tail.read(1, 2, 1 << 20);
    assertEquals(List.of(2L, 3L), positions(slice));
    assertEquals(4, slice.committed());
    assertEquals("data", slice.entries().get(0).namespace().orElseThrow().value());
    assertTrue(tail.read(4, 10, 1 << 20).entries().isEmpty());
    assertFalse(tail.read(4, 10, 1 << 20).behind());
  }

  @Test
  void anEntryOfTheFeedAndNamespaceOfTheOneBeforeItSaysSoAcrossCommitsButNotAcrossFeedsOrAGap() {
    FeedId other = TestBlocks.feedId();
    SpaceTail tail = new SpaceTail(0, 100, 1 << 20);
    tail.register(() -> {});
    Map<FeedId, Optional<Namespace>> both = Map.of(feed, Optional.of(Namespace.of("data")), other, Optional.empty());

    tail.publish(List.of(TestBlocks.positioned(feed, "a", 1, 1), TestBlocks.positioned(feed, "a", 2, 2),
        TestBlocks.positioned(other, "a", 1, 3)), both, 3);
    tail.publish(List.of(TestBlocks.positioned(other, "a", 2, 4), TestBlocks.positioned(feed, "a", 3, 5)), both, 5);
    tail.publish(List.of(TestBlocks.positioned(feed, "a", 4, 6)), Map.of(feed, Optional.empty()), 6);
    assertEquals(List.of(false, true, false, true, false, false), tail.read(0, 10, 1 << 20).entries().stream()
        .map(TailEntry::sameFeedAsPrevious).toList(), "positions 1 to 6");

    tail.publish(List.of(TestBlocks.positioned(feed, "a", 6, 8)), both, 8); // after a gap: 7 was never recorded
    assertEquals(List.of(false), tail.read(7, 10, 1 << 20).entries().stream().map(TailEntry::sameFeedAsPrevious).toList());
    assertTrue(TailEntry.following(tail.read(7, 10, 1 << 20).entries().get(0), TestBlocks.positioned(feed, "a", 7, 9),
        Optional.of(Namespace.of("data"))).sameFeedAsPrevious());
    assertFalse(TailEntry.of(TestBlocks.positioned(feed, "a", 7, 9), Optional.of(Namespace.of("data")))
        .sameFeedAsPrevious(), "an entry made alone follows none");
  }

  @Test
  void theOldestBlocksAreDroppedAndAReaderBehindThemIsSentToStorage() {
    SpaceTail tail = new SpaceTail(0, 3, 1 << 20);
    tail.register(() -> {});

    tail.publish(blocks(1, 5), namespaces, 5);

    assertTrue(tail.read(1, 10, 1 << 20).behind(), "position 2 is no longer held");
    assertEquals(List.of(3L, 4L, 5L), positions(tail.read(2, 10, 1 << 20)));
  }

  @Test
  void theByteBoundDropsBlocksToo() {
    long oneBlock = TailEntry.of(blocks(1, 1).get(0), Optional.empty()).bytes();
    SpaceTail tail = new SpaceTail(0, 100, oneBlock * 2);
    tail.register(() -> {});

    tail.publish(blocks(1, 5), namespaces, 5);

    assertEquals(List.of(4L, 5L), positions(tail.read(3, 10, 1 << 20)));
    assertTrue(tail.read(2, 10, 1 << 20).behind());
  }

  @Test
  void aBatchStopsAtItsByteBudgetButHoldsAtLeastOneBlock() {
    SpaceTail tail = new SpaceTail(0, 100, 1 << 20);
    tail.register(() -> {});
    tail.publish(blocks(1, 5), namespaces, 5);

    assertEquals(List.of(1L), positions(tail.read(0, 10, 1)));
  }

  @Test
  void aGapInWhatIsPublishedDropsWhatIsHeld() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);
    tail.register(() -> {});
    tail.publish(blocks(1, 2), namespaces, 2);

    tail.publish(blocks(5, 6), namespaces, 6); // 3 and 4 committed unseen (after a failure)

    assertEquals(6, tail.committed());
    assertTrue(tail.read(2, 10, 1 << 20).behind());
    assertEquals(List.of(6L), positions(tail.read(5, 10, 1 << 20)));
  }

  @Test
  void theLastWatcherLeavingDropsTheHeldBlocks() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);
    SpaceTail.Watcher watcher = () -> {};
    tail.register(watcher);
    tail.publish(blocks(1, 2), namespaces, 2);

    tail.unregister(watcher);

    assertEquals(0, tail.watcherCount());
    assertTrue(tail.read(0, 10, 1 << 20).behind());
  }

  /** What the store holds when read again: {@code highest}, and no chain where the tail knows one. */
  static KnownHistory.Stored stored(long highest) {
    return new KnownHistory.Stored(highest, OptionalLong.empty(), 0);
  }

  @Test
  void aReReadNeverUndoesACommitRecordedWhileTheStoreWasRead() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);
    tail.register(() -> {});
    tail.publish(blocks(1, 2), namespaces, 2);
    KnownHistory known = tail.known(); // the store is read again now: it holds 2
    tail.publish(blocks(3, 4), namespaces, 4); // an append of this process commits meanwhile

    assertFalse(tail.resync(known, stored(2)), "not a rollback");
    assertEquals(4, tail.committed());
    assertEquals(List.of(3L, 4L), positions(tail.read(2, 10, 1 << 20)));
  }

  @Test
  void aReReadBelowWhatWasKnownMovesTheTailBackDropsWhatItHeldAndTellsTheWatchers() {
    SpaceTail tail = new SpaceTail(0, 10, 1 << 20);
    List<Long> told = new ArrayList<>();
    tail.register(new SpaceTail.Watcher() {
      @Override
      public void signal() {}

      @Override
      public void historyWentBack(long highest) {
        told.add(highest);
      }
    });
    tail.publish(blocks(1, 5), namespaces, 5);

    assertTrue(tail.resync(tail.known(), stored(3)), "the store was restored");
    assertEquals(3, tail.committed());
    assertTrue(tail.read(2, 10, 1 << 20).behind(), "positions 4 and 5 are read again from storage");
    assertEquals(List.of(3L), told);
  }

  @Test
  void anotherChainWhereAStreamSentABlockIsHistoryThatWentBackThoughTheStoreHoldsMore() {
    SpaceTail tail = new SpaceTail(5, 10, 1 << 20);
    tail.sent(5, 42);

    assertFalse(tail.resync(tail.known(), new KnownHistory.Stored(8, OptionalLong.of(42), 0)), "the same history");
    assertTrue(tail.resync(tail.known(), new KnownHistory.Stored(9, OptionalLong.of(43), 0)),
        "restored, then overtaken by new appends before it was read");
    assertEquals(9, tail.committed());
  }

  @Test
  void aChainCompactedAwayIsNotChecked() {
    SpaceTail tail = new SpaceTail(5, 10, 1 << 20);
    tail.sent(5, 42);

    assertFalse(tail.resync(tail.known(), new KnownHistory.Stored(8, OptionalLong.empty(), 6)));
  }
}
