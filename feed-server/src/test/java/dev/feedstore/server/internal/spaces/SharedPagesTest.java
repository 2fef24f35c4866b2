package dev.feedstore.server.internal.spaces;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedPagesTest {
  final SharedPages pages = new SharedPages(SHARED_PAGES.defaultValue(),
      new SharedPageBudget(SHARED_PAGES_BYTES.defaultValue()));
  final AtomicInteger reads = new AtomicInteger();

  /** A page whose highest position tells which read it came from. */
  Page read() {
    return new Page(List.of(), false, Position.of(reads.incrementAndGet()), Optional.empty(), Map.of(),
        OptionalLong.empty(), OptionalLong.empty(), Position.NONE);
  }

  @Test
  void aThousandStreamsBehindAtTheSamePointReadStorageOnce() {
    SharedPages.Shared first = pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read));
    }
    assertEquals(1, reads.get());
  }

  @Test
  void streamsBehindAtHundredsOfPointsReadEachPageOnce() {
    // A saturated server's streams fall behind at many points, a page (a batch) apart: a page is
    // kept for each until there are more points than slots.
    int points = 200;
    for (int round = 0; round < 3; round++) {
      for (int point = 0; point < points; point++) {
        pages.page(Scope.WHOLE_SPACE, point * 100L, 100, 1 << 20, this::read);
      }
    }

    assertEquals(points, reads.get(), "each page was read once, then shared");
  }

  @Test
  void anotherPointOrOtherBoundsReadTheirOwnPage() {
    SharedPages.Shared first = pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);

    assertNotSame(first, pages.page(Scope.WHOLE_SPACE, 6, 100, 1 << 20, this::read));
    assertNotSame(first, pages.page(Scope.WHOLE_SPACE, 5, 10, 1 << 20, this::read));
    assertEquals(3, reads.get());
  }

  @Test
  void theReadersOfOneFeedShareItsPagesAndOtherScopesReadTheirOwn() {
    FeedId feed = TestBlocks.feedId();
    SharedPages.Shared ofFeed = pages.page(Scope.feeds(Set.of(feed)), 5, 100, 1 << 20, this::read);

    assertSame(ofFeed, pages.page(Scope.feeds(Set.of(feed)), 5, 100, 1 << 20, this::read), "an equal scope");
    SharedPages.Shared ofSpace = pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);
    SharedPages.Shared ofOther = pages.page(Scope.feeds(Set.of(TestBlocks.feedId())), 5, 100, 1 << 20, this::read);

    assertNotSame(ofFeed, ofSpace);
    assertNotSame(ofFeed, ofOther);
    assertEquals(3, reads.get());
    assertSame(ofFeed, pages.page(Scope.feeds(Set.of(feed)), 5, 100, 1 << 20, this::read), "still kept");
  }

  @Test
  void streamsBehindAtOnePointInsideAPageShareItsPartAfterThatPoint() {
    FeedId feed = TestBlocks.feedId();
    List<Block> blocks = List.of(TestBlocks.positioned(feed, "a", 0, 6),
        TestBlocks.positioned(feed, "a", 1, 7), TestBlocks.positioned(feed, "a", 2, 9));
    SharedPages.Shared shared = pages.page(Scope.feeds(Set.of(feed)), 4, 100, 1 << 20, () -> new Page(blocks, true,
        Position.of(12), Optional.empty(), Map.of(), OptionalLong.empty(), OptionalLong.empty(), Position.NONE));

    SharedPages.Part part = shared.after(6);
    assertEquals(List.of(7L, 9L), part.page().blocks().stream().map(block -> block.position().value()).toList());
    assertSame(part, shared.after(6), "the streams behind at 6 share the part and its encodings");
    SharedPages.Part other = shared.after(7);
    assertEquals(List.of(9L), other.page().blocks().stream().map(block -> block.position().value()).toList());
    assertNotSame(part.encodings(), other.encodings());
  }

  @Test
  void clearedPagesAreReadAgain() {
    pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);

    pages.clear();
    pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);

    assertEquals(2, reads.get());
  }

  @Test
  void aRollbackTheTailFollowsDropsThePages() {
    SpaceTail tail = new SpaceTail(10, 16, 1 << 20, new SharedPages(8, new SharedPageBudget(1 << 20)));
    tail.register(() -> {});
    tail.pages().page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);

    tail.resync(tail.known(), new KnownHistory.Stored(3, OptionalLong.empty(), 0));
    tail.pages().page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read);

    assertEquals(2, reads.get());
  }

  @Test
  void aPageReadBeforeAClearIsNeitherKeptNorServedAfterIt() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch cleared = new CountDownLatch(1);
    CompletableFuture<SharedPages.Shared> racing = CompletableFuture.supplyAsync(() -> pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, () -> {
      Page page = read();
      if (page.maxPosition().value() == 1) {
        reading.countDown();
        Await.open("the pages are cleared", Duration.ofSeconds(20), cleared);
      }
      return page;
    }));
    Await.open("a stream reads a page", Duration.ofSeconds(20), reading);

    pages.clear(); // the history it reads is rolled back, say
    cleared.countDown();

    SharedPages.Shared raced = racing.get(20, TimeUnit.SECONDS);

    assertNotEquals(1, pages.page(Scope.WHOLE_SPACE, 5, 100, 1 << 20, this::read).page().maxPosition().value(),
        "the page read before the clear was not kept for the next stream");
    assertNotEquals(1, raced.page().maxPosition().value(), "nor given to the stream that read it: it read again");
  }
}
