package dev.feedstore.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedPagesTest {
  final SharedPages pages = new SharedPages(1 << 20);
  final AtomicInteger reads = new AtomicInteger();

  Page read() {
    return read(List.of());
  }

  Page read(List<Block> blocks) {
    reads.incrementAndGet();
    return new Page(blocks, false, Position.of(10), Optional.empty(), Map.of(), OptionalLong.empty(),
        OptionalLong.empty(), Position.NONE);
  }

  @Test
  void aThousandStreamsBehindAtTheSamePointReadStorageOnce() {
    SharedPages.Shared first = pages.page(5, 100, 1 << 20, this::read);
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, pages.page(5, 100, 1 << 20, this::read));
    }
    assertEquals(1, reads.get());
  }

  @Test
  void anotherPointOrOtherBoundsReadTheirOwnPage() {
    SharedPages.Shared first = pages.page(5, 100, 1 << 20, this::read);

    assertNotSame(first, pages.page(6, 100, 1 << 20, this::read));
    assertNotSame(first, pages.page(5, 10, 1 << 20, this::read));
    assertEquals(3, reads.get());
  }

  @Test
  void clearedPagesAreReadAgain() {
    pages.page(5, 100, 1 << 20, this::read);

    pages.clear();
    pages.page(5, 100, 1 << 20, this::read);

    assertEquals(2, reads.get());
  }

  @Test
  void aRollbackTheTailFollowsDropsThePages() {
    SpaceTail tail = new SpaceTail(10, 16, 1 << 20);
    tail.register(() -> {});
    tail.pages().page(5, 100, 1 << 20, this::read);

    tail.resync(3);
    tail.pages().page(5, 100, 1 << 20, this::read);

    assertEquals(2, reads.get());
  }

  @Test
  void streamsSpreadOverTwoHundredFiftySixConsecutivePagesShareEachOfThem() {
    List<SharedPages.Shared> first = new ArrayList<>();
    for (long page = 1; page <= 256; page++) {
      first.add(pages.page(page * 100, 100, 1 << 20, this::read));
    }
    for (int stream = 0; stream < 10; stream++) {
      for (int page = 1; page <= 256; page++) {
        assertSame(first.get(page - 1), pages.page(page * 100L, 100, 1 << 20, this::read), "page " + page);
      }
    }
    assertEquals(256, reads.get());
  }

  @Test
  void aPageThatWouldPassTheByteBoundIsSentButNotKept() {
    FeedId feed = TestBlocks.feedId();
    List<Block> blocks = List.of(TestBlocks.positioned(feed, "a", 1, 1), TestBlocks.positioned(feed, "b", 2, 2));
    long pageBytes = 3 * (BlockSizes.of(blocks.get(0)) + BlockSizes.of(blocks.get(1)));
    SharedPages bounded = new SharedPages(pageBytes + pageBytes / 2);

    SharedPages.Shared kept = bounded.page(100, 100, 1 << 20, () -> read(blocks));
    SharedPages.Shared notKept = bounded.page(200, 100, 1 << 20, () -> read(blocks));

    assertEquals(2, notKept.page().blocks().size());
    assertSame(kept, bounded.page(100, 100, 1 << 20, () -> read(blocks)));
    assertNotSame(notKept, bounded.page(200, 100, 1 << 20, () -> read(blocks)));
    assertEquals(3, reads.get());
  }
}
