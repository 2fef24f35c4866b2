package dev.feedstore.server.internal.authority;

import static dev.feedstore.server.settings.ServerSettings.STREAMS_SPACE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.errors.AppendConflictException;
import dev.feedstore.server.internal.errors.EarlierAppendRefusedException;
import dev.feedstore.server.internal.errors.ErrorCode;
import dev.feedstore.server.internal.errors.CallRefusal;
import dev.feedstore.server.internal.streams.EndedStreams;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.GatedFeedStore;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appends one writer keeps in flight on a stream ({@link AppendOrder}): those of one feed commit
 * in the stream's order even when the group sets the first aside, and after a refused one the
 * later ones of its feed store nothing (ABORTED) while other feeds go on. Over a real SQLite file,
 * with a write held at a gate so that the appends fall in one group.
 */
class AppendOrderTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  GatedFeedStore store;
  PositionAuthority authority;
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();

  @BeforeEach
  void open() {
    store = new GatedFeedStore(SqliteFeedStore.open(dir.resolve("feeds.db")));
    authority = new PositionAuthority(store, ServerSettings.DEFAULTS, Clock.systemUTC(),
        new EndedStreams(SpaceId.of(ServerSettings.DEFAULTS.get(STREAMS_SPACE))));
  }

  @AfterEach
  void close() {
    store.open();
    store.close();
  }

  @Test
  void anAppendTheGroupSetsAsideCommitsBeforeTheNextAppendOfItsFeed() throws Exception {
    Block stored = TestBlocks.block(feed, "a", 0);
    authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(stored)));
    AppendOrder order = new AppendOrder();
    holdCommits();
    // A re-push with one new block: the group's optimistic transaction sets it aside to run alone.
    Block second = TestBlocks.after(stored, "a", 1);
    CompletableFuture<AppendResult> first = submit(order, stored, second);
    awaitWaiting(1);
    CompletableFuture<AppendResult> next = submit(order, TestBlocks.after(second, "a", 2));
    awaitWaiting(2);
    store.open();

    assertArrayEquals(new long[] {1, 3}, first.get(30, TimeUnit.SECONDS).positions());
    assertArrayEquals(new long[] {4}, next.get(30, TimeUnit.SECONDS).positions(),
        "the next append of the feed commits after the one set aside");
  }

  @Test
  void afterARefusedAppendTheLaterOnesOfItsFeedStoreNothingAndOtherFeedsGoOn() throws Exception {
    authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0, "theirs"))));
    AppendOrder order = new AppendOrder();
    holdCommits();
    Block conflicting = TestBlocks.block(feed, "a", 0, "mine");
    CompletableFuture<AppendResult> refused = submit(order, conflicting);
    awaitWaiting(1);
    Block following = TestBlocks.after(conflicting, "a", 1);
    CompletableFuture<AppendResult> aborted = submit(order, following);
    awaitWaiting(2);
    CompletableFuture<AppendResult> elsewhere = submit(order, TestBlocks.block(other, "a", 0));
    awaitWaiting(3);
    store.open();

    assertInstanceOf(AppendConflictException.class, failure(refused));
    EarlierAppendRefusedException abort = assertInstanceOf(EarlierAppendRefusedException.class, failure(aborted));
    assertEquals(ErrorCode.ABORTED, CallRefusal.of(abort).code());
    assertTrue(abort.getMessage().contains(feed.value()), abort.getMessage());
    assertArrayEquals(new long[] {3}, elsewhere.get(30, TimeUnit.SECONDS).positions());
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, following.key())), "nothing of it was stored");

    // Sent after the refusal was answered: still refused on this stream, at once.
    assertThrows(EarlierAppendRefusedException.class, () -> submit(order, TestBlocks.after(following, "a", 2)));
    // On a new stream, once the refusal is handled (the writer took the next sequence), it commits.
    Block rekeyed = TestBlocks.block(feed, "a", 1, "mine");
    assertArrayEquals(new long[] {4, 5}, submit(new AppendOrder(), rekeyed, TestBlocks.after(rekeyed, "a", 2))
        .get(30, TimeUnit.SECONDS).positions());
  }

  @Test
  void anAppendAfterOneRefusedBeforeItWasMadeIsAborted() {
    AppendOrder order = new AppendOrder();
    order.refuse(SPACE.value(), List.of(feed.value()));

    EarlierAppendRefusedException abort = assertThrows(EarlierAppendRefusedException.class,
        () -> submit(order, TestBlocks.block(feed, "a", 0)));
    assertEquals(List.of(feed.value()), abort.feeds());
    assertEquals(Optional.empty(), store.read(tx -> tx.blocks().find(SPACE, TestBlocks.key(feed, "a", 0))));
  }

  /** Holds the next commit, of a block of its own, so that the appends submitted meanwhile wait as one group. */
  private void holdCommits() throws InterruptedException {
    store.holdNextWrite();
    submit(new AppendOrder(), TestBlocks.block(TestBlocks.feedId(), "x", 0));
    store.awaitHeld();
  }

  private CompletableFuture<AppendResult> submit(AppendOrder order, Block... blocks) {
    CompletableFuture<AppendResult> done = new CompletableFuture<>();
    authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(blocks)), order, (result, failure) -> {
      if (failure != null) {
        done.completeExceptionally(failure);
      } else {
        done.complete(result);
      }
    });
    return done;
  }

  private static Throwable failure(CompletableFuture<AppendResult> append) {
    return assertThrows(ExecutionException.class, () -> append.get(30, TimeUnit.SECONDS)).getCause();
  }

  private void awaitWaiting(int appends) {
    Await.until(appends + " appends waiting", () -> authority.waitingAppends() == appends);
  }
}
