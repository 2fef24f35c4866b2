package dev.feedstore.server.internal.spaces;

import static dev.feedstore.server.settings.ServerSettings.SHARED_PAGES_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages kept for streams behind are bounded in all spaces together ({@code shared-pages-bytes}),
 * not only per space ({@code shared-pages}): many watched spaces whose streams fall behind hold no
 * more than the budget, the pages kept longest going first.
 */
class SharedPageBudgetTest {
  private static final int BATCH = 100;

  @TempDir Path dir;
  final FeedId feed = TestBlocks.feedId();
  final AtomicInteger reads = new AtomicInteger();

  /** What a stream of the whole space reads after {@code after}: a batch of blocks of 256 bytes. */
  Page page(long after) {
    reads.incrementAndGet();
    List<Block> blocks = new ArrayList<>();
    for (long p = after + 1; p <= after + BATCH; p++) {
      blocks.add(TestBlocks.block(feed, "a", p, "x".repeat(256)).withPosition(Position.of(p)));
    }
    return new Page(blocks, true, Position.of(after + 10 * BATCH), Optional.empty(), Map.of(), OptionalLong.empty(),
        OptionalLong.empty(), Position.NONE);
  }

  /** What one page is charged. */
  long onePage() {
    return new SharedPages(1, new SharedPageBudget(Long.MAX_VALUE)).page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0)).bytes();
  }

  @Test
  void thePagesOfTwoHundredWatchedSpacesTogetherStayWithinSharedPagesBytes() {
    long budget = 50 * onePage();
    ServerSettings settings = ServerSettings.newBuilder().set(SHARED_PAGES_BYTES, budget).build();
    try (SqliteFeedStore store = SqliteFeedStore.open(dir.resolve("feeds.db"))) {
      Spaces spaces = new Spaces(store, settings);
      List<SpaceState> watched = new ArrayList<>();
      for (int s = 0; s < 200; s++) {
        SpaceState space = spaces.acquire(SpaceId.of("s" + s));
        watched.add(space);
        for (long p = 0; p < 10; p++) {
          long after = p * BATCH;
          space.tail().pages().page(Scope.WHOLE_SPACE, after, BATCH, 1 << 20, () -> page(after));
        }
        long kept = watched.stream().mapToLong(state -> state.tail().pages().keptBytes()).sum();
        assertTrue(kept <= budget, (s + 1) + " spaces keep " + kept + " bytes of pages, over the budget " + budget);
      }

      assertEquals(budget, watched.stream().mapToLong(state -> state.tail().pages().keptBytes()).sum(),
          "the budget is used whole");
      for (SpaceState space : watched.subList(195, 200)) {
        assertEquals(10 * onePage(), space.tail().pages().keptBytes(), "the newest pages are the ones kept");
      }
      watched.forEach(spaces::release);
    }
  }

  @Test
  void thePageKeptLongestGoesFirstWhicheverSpaceKeptIt() {
    SharedPageBudget budget = new SharedPageBudget(3 * onePage());
    SharedPages first = new SharedPages(8, budget);
    SharedPages second = new SharedPages(8, budget);
    SharedPages.Shared oldest = first.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0));
    SharedPages.Shared kept = first.page(Scope.WHOLE_SPACE, 100, BATCH, 1 << 20, () -> page(100));
    second.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0));

    second.page(Scope.WHOLE_SPACE, 100, BATCH, 1 << 20, () -> page(100));

    assertSame(kept, first.page(Scope.WHOLE_SPACE, 100, BATCH, 1 << 20, () -> page(100)));
    int before = reads.get();
    assertTrue(oldest != first.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0)), "the oldest page was dropped");
    assertEquals(before + 1, reads.get(), "and is read again");
    assertEquals(3 * onePage(), budget.used());
  }

  @Test
  void aPageLargerThanTheBudgetIsSentButNotKept() {
    SharedPageBudget none = new SharedPageBudget(0);
    SharedPages pages = new SharedPages(8, none);

    pages.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0));
    pages.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0));

    assertEquals(2, reads.get(), "each stream read its own");
    assertEquals(0, none.used());
  }

  @Test
  void clearedAndReplacedPagesGiveBackWhatTheyHeld() {
    SharedPageBudget budget = new SharedPageBudget(Long.MAX_VALUE);
    SharedPages pages = new SharedPages(2, budget);
    pages.page(Scope.WHOLE_SPACE, 0, BATCH, 1 << 20, () -> page(0));
    pages.page(Scope.WHOLE_SPACE, 200, BATCH, 1 << 20, () -> page(200)); // the same slot as 0 in a ring of two
    assertEquals(onePage(), budget.used());

    pages.clear();

    assertEquals(0, budget.used());
  }
}
