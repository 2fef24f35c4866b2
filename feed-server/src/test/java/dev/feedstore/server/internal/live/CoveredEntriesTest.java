package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.spaces.TailEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A follower sends, of the recent blocks it reads, exactly those its scope covers, in order: the
 * whole slice as it was read when the scope covers every block of it, and a feed's blocks between
 * other feeds' however they interleave, the answer for one feed kept only for that feed and its
 * namespace.
 */
class CoveredEntriesTest {
  private final FeedId mine = TestBlocks.feedId();
  private final FeedId other = TestBlocks.feedId();
  private final Namespace chat = Namespace.of("chat");
  private long position;

  @Test
  void aScopeThatCoversEveryBlockOfASliceSendsTheSliceItself() {
    List<TailEntry> slice = List.of(entry(mine, Optional.empty()), entry(other, Optional.of(chat)));
    assertSame(slice, new CoveredEntries(Scope.WHOLE_SPACE).of(slice));

    List<TailEntry> mineOnly = List.of(entry(mine, Optional.empty()), entry(mine, Optional.empty()));
    assertSame(mineOnly, new CoveredEntries(Scope.feeds(Set.of(mine))).of(mineOnly));
  }

  @Test
  void aFeedsBlocksAreKeptInOrderHoweverTheyInterleaveWithOtherFeeds() {
    CoveredEntries covered = new CoveredEntries(Scope.feeds(Set.of(mine)));
    List<TailEntry> slice = List.of(entry(other, Optional.empty()), entry(mine, Optional.empty()),
        entry(mine, Optional.empty()), entry(other, Optional.empty()), entry(mine, Optional.empty()),
        entry(other, Optional.empty()));
    assertEquals(positions(slice, 2, 3, 5), positions(covered.of(slice)));

    List<TailEntry> next = List.of(entry(mine, Optional.empty()), entry(other, Optional.empty()),
        entry(mine, Optional.empty()));
    assertEquals(positions(next, 7, 9), positions(covered.of(next)), "the next slice, from the answer kept for the last feed");
    assertEquals(List.of(), covered.of(List.of(entry(other, Optional.empty()))));
  }

  @Test
  void runsOfOneFeedAreKeptOrLeftWholeAndASliceThatStartsInsideARunIsCheckedAfresh() {
    CoveredEntries covered = new CoveredEntries(Scope.feeds(Set.of(mine)));
    List<TailEntry> tail = new ArrayList<>();
    for (FeedId feed : List.of(mine, mine, other, other, other, mine, mine, other, mine, mine, mine)) {
      position++;
      Block block = TestBlocks.positioned(feed, "a", position, position);
      tail.add(tail.isEmpty() ? TailEntry.of(block, Optional.empty())
          : TailEntry.following(tail.get(tail.size() - 1), block, Optional.empty()));
    }
    assertEquals(positions(tail, 1, 2, 6, 7), positions(covered.of(tail.subList(0, 8))));
    assertEquals(positions(tail, 10, 11), positions(covered.of(tail.subList(9, 11))),
        "a slice starting inside a run of the stream's feed, after a slice that ended with another feed");
    assertEquals(List.of(), covered.of(tail.subList(3, 5)), "inside a run of another feed, after the stream's");
  }

  @Test
  void aNamespaceCoversTheFeedsInItAndNoOtherWhateverFeedWasCheckedBefore() {
    FeedId inChat = TestBlocks.feedId();
    CoveredEntries covered = new CoveredEntries(Scope.namespace(chat));
    List<TailEntry> slice = List.of(entry(inChat, Optional.of(chat)), entry(mine, Optional.empty()),
        entry(other, Optional.of(Namespace.of("notes"))), entry(inChat, Optional.of(chat)),
        entry(other, Optional.of(chat)));
    assertEquals(positions(slice, 1, 4, 5), positions(covered.of(slice)));
  }

  private TailEntry entry(FeedId feed, Optional<Namespace> namespace) {
    position++;
    return TailEntry.of(TestBlocks.positioned(feed, "a", position, position), namespace);
  }

  private static List<Long> positions(List<TailEntry> entries) {
    List<Long> positions = new ArrayList<>();
    entries.forEach(entry -> positions.add(entry.position()));
    return positions;
  }

  /** The positions {@code expected}, checked to be among {@code slice}'s. */
  private static List<Long> positions(List<TailEntry> slice, long... expected) {
    List<Long> all = positions(slice);
    List<Long> chosen = new ArrayList<>();
    for (long position : expected) {
      if (!all.contains(position)) {
        throw new IllegalArgumentException("position " + position + " is not in the slice " + all);
      }
      chosen.add(position);
    }
    return chosen;
  }
}
