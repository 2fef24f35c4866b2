package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.client.grpc.AuthorityChannel;
import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The appender keeps several Appends in flight on one connection against a real server on loopback:
 * calls go out without waiting for the answers before them, at most maxCallsInFlight at once, and
 * each is answered in order once committed; a refused call aborts the later ones of its feed, which
 * go through once sent again.
 */
class AppenderTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  TestServer t;
  final CountDownLatch gate = new CountDownLatch(1);
  final FeedId feed = TestBlocks.feedId();
  final FeedId other = TestBlocks.feedId();

  @AfterEach
  void stop() {
    gate.countDown();
    if (t != null) {
      t.close();
    }
  }

  @Test
  void callsGoOutWithoutWaitingUpToTheBoundAndAreAnsweredInOrderOnceCommitted() throws Exception {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    AtomicBoolean held = new AtomicBoolean();
    t.store.beforeWrite(() -> {
      held.set(true);
      Await.open("the test opens the gate", Duration.ofSeconds(60), gate);
    });
    try (Appender appender = AuthorityChannel.appender(t.channel).maxCallsInFlight(4).build()) {
      List<CompletableFuture<AppendReceipt>> replies = new ArrayList<>();
      replies.add(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0))));
      Await.until("the first call's commit is held", Duration.ofSeconds(30), held::get);
      for (int i = 1; i < 4; i++) {
        replies.add(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", i))));
      }
      AtomicReference<CompletableFuture<AppendReceipt>> fifth = new AtomicReference<>();
      Thread sender = new Thread(() ->
          fifth.set(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 4)))));
      sender.start();
      Await.until("the fifth call waits for room", Duration.ofSeconds(30),
          () -> sender.getState() == Thread.State.WAITING);
      assertTrue(replies.stream().noneMatch(CompletableFuture::isDone), "nothing is answered before its commit");

      gate.countDown();
      sender.join(TimeUnit.SECONDS.toMillis(30));
      replies.add(fifth.get());
      for (int i = 0; i < 5; i++) {
        assertEquals(List.of(Position.of(i + 1L)), appender.await(replies.get(i)).positions(), "call " + i);
      }
    }
  }

  @Test
  void aRefusedCallAbortsTheLaterCallsOfItsFeedWhichGoThroughWhenSentAgain() {
    t = TestServer.on(dir.resolve("feeds.db")).loopback().start();
    try (Appender appender = AuthorityChannel.appender(t.channel).build()) {
      appender.await(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0, "theirs"))));

      Block mine = TestBlocks.block(feed, "a", 0, "mine");
      Block following = TestBlocks.after(mine, "a", 1);
      CompletableFuture<AppendReceipt> refused = appender.append(SPACE, Optional.empty(), List.of(mine));
      CompletableFuture<AppendReceipt> aborted = appender.append(SPACE, Optional.empty(), List.of(following));
      CompletableFuture<AppendReceipt> elsewhere = appender.append(SPACE, Optional.empty(),
          List.of(TestBlocks.block(other, "a", 0)));

      AppendFailedException conflict = failure(appender, refused);
      assertEquals(AppendFailedException.Reason.SEQUENCE_CONFLICT, conflict.reason(), conflict.toString());
      assertEquals(Refusal.Code.ALREADY_EXISTS, conflict.code());
      assertEquals(List.of(mine.key()), conflict.conflicts());
      AppendFailedException abortion = failure(appender, aborted);
      assertEquals(AppendFailedException.Reason.ABORTED, abortion.reason(), abortion.toString());
      assertEquals(Refusal.Code.ABORTED, abortion.code());
      assertEquals(List.of(), abortion.conflicts());
      assertEquals(List.of(Position.of(2)), appender.await(elsewhere).positions());

      // Until the writer says it handled the refusal, the feed's calls are aborted; then they go through.
      Block next = TestBlocks.after(following, "a", 2);
      assertEquals(AppendFailedException.Reason.ABORTED,
          failure(appender, appender.append(SPACE, Optional.empty(), List.of(next))).reason());
      appender.restart();
      Block moved = TestBlocks.block(feed, "a", 1, "mine");
      assertEquals(List.of(Position.of(3), Position.of(4)), appender.await(appender.append(SPACE, Optional.empty(),
          List.of(moved, TestBlocks.after(moved, "a", 2)))).positions());
    }
  }

  @Test
  void aCallThatNoAuthorityAnswersFailsAsUnansweredNotAsRefused() {
    try (Appender appender = Appender.newBuilder("127.0.0.1:1", ConnectOptions.DEFAULTS).build()) {
      AppendFailedException unanswered = failure(appender,
          appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0))));

      assertEquals(AppendFailedException.Reason.UNANSWERED, unanswered.reason(), unanswered.toString());
      assertEquals(Refusal.Code.UNAVAILABLE, unanswered.code());
    }
  }

  @Test
  void aBoundBelowOneIsRefusedNamingTheSetting() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> Appender.newBuilder("127.0.0.1:1", ConnectOptions.DEFAULTS).maxCallsInFlight(0));
    assertEquals("maxCallsInFlight must be >= 1, was 0", refused.getMessage());
  }

  /** The failure of {@code reply}, as a future and as {@link Appender#await} report it. */
  private static AppendFailedException failure(Appender appender, CompletableFuture<AppendReceipt> reply) {
    CompletionException failed = assertThrows(CompletionException.class, reply::join);
    AppendFailedException awaited = assertThrows(AppendFailedException.class, () -> appender.await(reply));
    assertSame(failed.getCause(), awaited);
    return awaited;
  }
}
