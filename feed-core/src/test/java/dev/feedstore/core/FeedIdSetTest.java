package dev.feedstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.testing.TestBlocks;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The compact set of feed ids that scopes hold: the same answers as a {@link TreeSet}, in 16 bytes an id. */
class FeedIdSetTest {
  private static final FeedId LOWEST = FeedId.parse("00000000000000000000000000");
  private static final FeedId HIGHEST = FeedId.parse("7ZZZZZZZZZZZZZZZZZZZZZZZZZ");

  @Test
  void anIdsBitsGiveTheSameIdBackAndOrderIdsAsTheirText() {
    List<FeedId> ids = ids(2_000);
    ids.addAll(List.of(LOWEST, HIGHEST, FeedId.parse("0000000000000G000000000000"),
        FeedId.parse("7ZZZZZZZZZZZZ0ZZZZZZZZZZZZ")));
    for (FeedId id : ids) {
      assertEquals(id, FeedId.ofBits(id.high(), id.low()));
    }
    for (int i = 1; i < ids.size(); i++) {
      FeedId a = ids.get(i - 1);
      FeedId b = ids.get(i);
      int bits = Long.compareUnsigned(a.high(), b.high());
      bits = bits != 0 ? bits : Long.compareUnsigned(a.low(), b.low());
      assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(bits), a + " vs " + b);
    }
  }

  @Test
  void answersAsATreeSetOfTheSameIds() {
    List<FeedId> ids = ids(500);
    ids.add(LOWEST);
    ids.add(HIGHEST);
    ids.add(ids.get(3)); // a repeat
    TreeSet<FeedId> expected = new TreeSet<>(ids);
    FeedIdSet set = FeedIdSet.copyOf(ids);

    assertEquals(expected.size(), set.size());
    assertEquals(new ArrayList<>(expected), new ArrayList<>(set));
    assertEquals(expected, set);
    assertEquals(set, expected);
    assertEquals(expected.hashCode(), set.hashCode());
    assertEquals(expected.first(), set.first());
    assertEquals(expected.last(), set.last());
    for (FeedId id : ids) {
      assertTrue(set.contains(id));
    }
    for (FeedId other : ids(200)) {
      assertEquals(expected.contains(other), set.contains(other));
    }
    assertFalse(set.contains("not an id"));
    FeedId a = ids.get(10);
    FeedId b = ids.get(20).compareTo(a) > 0 ? ids.get(20) : a;
    assertEquals(new ArrayList<>(expected.subSet(a, b)), new ArrayList<>(set.subSet(a, b)));
    assertEquals(new ArrayList<>(expected.headSet(b)), new ArrayList<>(set.headSet(b)));
    assertEquals(new ArrayList<>(expected.tailSet(a)), new ArrayList<>(set.tailSet(a)));
    assertEquals(expected.tailSet(a).size(), set.tailSet(a).size());
    assertEquals(FeedIdSet.copyOf(set.tailSet(a)), set.tailSet(a));
    assertThrows(UnsupportedOperationException.class, () -> set.add(LOWEST));
    assertThrows(UnsupportedOperationException.class, () -> set.remove(LOWEST));
    assertThrows(UnsupportedOperationException.class, set::clear);
  }

  @Test
  void anEmptySetHasNoFirstOrLast() {
    FeedIdSet empty = FeedIdSet.copyOf(Set.of());
    assertTrue(empty.isEmpty());
    assertEquals(Set.of(), empty);
    assertThrows(java.util.NoSuchElementException.class, empty::first);
    assertThrows(java.util.NoSuchElementException.class, empty::last);
  }

  @Test
  void aScopeHoldsItsFeedIdsCompactlyAndEqualsTheSameScopeBuiltOtherwise() {
    List<FeedId> ids = ids(1_000);
    Scope.Selection fromList = new Scope.Selection(new HashSet<>(ids), Set.of(Namespace.of("notes")));
    Scope.Selection fromTree = new Scope.Selection(new TreeSet<>(ids), new TreeSet<>(Set.of(Namespace.of("notes"))));

    assertEquals(fromList, fromTree);
    assertEquals(fromList.hashCode(), fromTree.hashCode());
    assertTrue(fromList.covers(ids.get(7), java.util.Optional.empty()));
    assertTrue(fromList.covers(TestBlocks.feedId(), java.util.Optional.of(Namespace.of("notes"))));
    assertFalse(fromList.covers(TestBlocks.feedId(), java.util.Optional.empty()));
    assertTrue(fromList.heapBytes() >= 16_000 && fromList.heapBytes() < 17_000, fromList.heapBytes() + " bytes");
    assertEquals(0, Scope.WHOLE_SPACE.heapBytes());
  }

  private static List<FeedId> ids(int count) {
    Random random = new Random(7);
    List<FeedId> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Clock clock = Clock.fixed(Instant.ofEpochMilli(random.nextLong() & ((1L << 48) - 1)), ZoneOffset.UTC);
      ids.add(FeedId.generate(clock, random));
    }
    return ids;
  }
}
