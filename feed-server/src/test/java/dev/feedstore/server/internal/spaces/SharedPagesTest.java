package dev.feedstore.server.internal.spaces;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES;
import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.Position;
import dev.feedstore.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    SharedPages.Shared first = pages.page(5, 100, 1 << 20, this::read);
    for (int stream = 0; stream < 999; stream++) {
      assertSame(first, pages.page(5, 100, 1 << 20, this::read));
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
        pages.page(point * 100L, 100, 1 << 20, this::read);
      }
    }

    assertEquals(points, reads.get(), "each page was read once, then shared");
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
    SpaceTail tail = new SpaceTail(10, 16, 1 << 20, new SharedPages(8, new SharedPageBudget(1 << 20)));
    tail.register(() -> {});
    tail.pages().page(5, 100, 1 << 20, this::read);

    tail.resync(tail.known(), new KnownHistory.Stored(3, OptionalLong.empty(), 0));
    tail.pages().page(5, 100, 1 << 20, this::read);

    assertEquals(2, reads.get());
  }

  @Test
  void aPageReadBeforeAClearIsNeitherKeptNorServedAfterIt() throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CountDownLatch cleared = new CountDownLatch(1);
    CompletableFuture<SharedPages.Shared> racing = CompletableFuture.supplyAsync(() -> pages.page(5, 100, 1 << 20, () -> {
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

    assertNotEquals(1, pages.page(5, 100, 1 << 20, this::read).page().maxPosition().value(),
        "the page read before the clear was not kept for the next stream");
    assertNotEquals(1, raced.page().maxPosition().value(), "nor given to the stream that read it: it read again");
  }
}
