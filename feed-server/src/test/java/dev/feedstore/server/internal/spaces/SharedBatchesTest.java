package dev.feedstore.server.internal.spaces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Streams that send the same batch with the same event fields share one encoding, built once; any
 * difference in the fields or the blocks builds one of its own.
 */
class SharedBatchesTest {
  /** An encoding: the event fields and the positions it holds. */
  record Encoded(Object fields, List<Long> positions) {}

  static final Encodings.Kind<SharedBatches<Encoded>> KIND = new Encodings.Kind<>("test encodings");

  final FeedId feed = TestBlocks.feedId();
  final List<TailEntry> entries = new ArrayList<>();
  final AtomicInteger built = new AtomicInteger();

  SharedBatchesTest() {
    for (long p = 1; p <= 5; p++) {
      entries.add(TailEntry.of(TestBlocks.positioned(feed, "a", p, p), Optional.empty()));
    }
  }

  Encoded live(Object fields, List<TailEntry> batch) {
    return SharedBatches.live(KIND, fields, batch, () -> {
      built.incrementAndGet();
      return new Encoded(fields, batch.stream().map(TailEntry::position).toList());
    });
  }

  @Test
  void streamsSendingTheSameBatchWithTheSameFieldsShareOneEncodingBuiltOnce() {
    Encoded first = live("request 1 at 5", entries.subList(0, 5));
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, live("request 1 at 5", new ArrayList<>(entries.subList(0, 5))));
    }
    assertEquals(1, built.get());
  }

  @Test
  void anyDifferenceInTheFieldsOrTheBlocksBuildsAnEncodingOfItsOwn() {
    Encoded shared = live("", entries.subList(0, 5));

    Encoded otherFields = live("other", entries.subList(0, 5));
    Encoded otherBlocks = live("", List.of(entries.get(0), entries.get(2), entries.get(4)));
    Encoded sameBlocksOtherEntries = live("", List.of(TailEntry.of(entries.get(0).block(), Optional.empty()),
        entries.get(1), entries.get(2), entries.get(3), entries.get(4)));

    for (Encoded other : List.of(otherFields, otherBlocks, sameBlocksOtherEntries)) {
      assertNotSame(shared, other);
    }
    assertEquals(new Encoded("other", List.of(1L, 2L, 3L, 4L, 5L)), otherFields);
    assertEquals(List.of(1L, 3L, 5L), otherBlocks.positions());
    assertEquals(4, built.get());
  }

  @Test
  void streamsAtTwoDifferentPointsDoNotEvictEachOthersEncoding() {
    Encoded fromOne = live("", entries.subList(0, 5));
    Encoded fromFour = live("", entries.subList(3, 5));

    assertSame(fromOne, live("", entries.subList(0, 5)));
    assertSame(fromFour, live("", entries.subList(3, 5)));
    assertEquals(2, built.get());
  }

  @Test
  void aPagesEncodingIsKeptWithThePageByItsFields() {
    Encodings page = new Encodings();
    Encoded first = SharedBatches.page(KIND, "cursor 1", page, () -> new Encoded("cursor 1", List.of(built.incrementAndGet() + 0L)));
    assertSame(first, SharedBatches.page(KIND, "cursor 1", page, () -> new Encoded("x", List.of())));
    Encoded other = SharedBatches.page(KIND, "cursor 2", page, () -> new Encoded("cursor 2", List.of(built.incrementAndGet() + 0L)));
    assertNotSame(first, other);
    assertEquals(2, built.get());
  }
}
