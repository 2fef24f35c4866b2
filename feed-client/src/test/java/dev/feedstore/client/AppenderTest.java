package dev.feedstore.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.sync.AppendAbortedException;
import dev.feedstore.core.sync.AppendReply;
import dev.feedstore.core.sync.AuthorityException;
import dev.feedstore.core.sync.SequenceConflictException;
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
    try (Appender appender = Appender.newBuilder(t.channel).maxCallsInFlight(4).build()) {
      List<CompletableFuture<AppendReply>> replies = new ArrayList<>();
      replies.add(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0))));
      Await.until("the first call's commit is held", Duration.ofSeconds(30), held::get);
      for (int i = 1; i < 4; i++) {
        replies.add(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", i))));
      }
      AtomicReference<CompletableFuture<AppendReply>> fifth = new AtomicReference<>();
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
    try (Appender appender = Appender.newBuilder(t.channel).build()) {
      appender.await(appender.append(SPACE, Optional.empty(), List.of(TestBlocks.block(feed, "a", 0, "theirs"))));

      Block mine = TestBlocks.block(feed, "a", 0, "mine");
      Block following = TestBlocks.after(mine, "a", 1);
      CompletableFuture<AppendReply> refused = appender.append(SPACE, Optional.empty(), List.of(mine));
      CompletableFuture<AppendReply> aborted = appender.append(SPACE, Optional.empty(), List.of(following));
      CompletableFuture<AppendReply> elsewhere = appender.append(SPACE, Optional.empty(),
          List.of(TestBlocks.block(other, "a", 0)));

      SequenceConflictException conflict = assertInstanceOf(SequenceConflictException.class, failure(refused));
      assertEquals(List.of(mine.key()), conflict.keys());
      assertInstanceOf(AppendAbortedException.class, failure(aborted));
      assertEquals(List.of(Position.of(2)), appender.await(elsewhere).positions());

      // Until the writer says it handled the refusal, the feed's calls are aborted; then they go through.
      Block next = TestBlocks.after(following, "a", 2);
      assertInstanceOf(AppendAbortedException.class, failure(appender.append(SPACE, Optional.empty(), List.of(next))));
      appender.restart();
      Block moved = TestBlocks.block(feed, "a", 1, "mine");
      assertEquals(List.of(Position.of(3), Position.of(4)), appender.await(appender.append(SPACE, Optional.empty(),
          List.of(moved, TestBlocks.after(moved, "a", 2)))).positions());
    }
  }

  @Test
  void aBoundBelowOneIsRefusedNamingTheSetting() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> Appender.newBuilder("127.0.0.1:1", ConnectOptions.DEFAULTS).maxCallsInFlight(0));
    assertEquals("maxCallsInFlight must be >= 1, was 0", refused.getMessage());
  }

  private static AuthorityException failure(CompletableFuture<AppendReply> reply) {
    CompletionException failed = assertThrows(CompletionException.class, reply::join);
    return assertInstanceOf(AuthorityException.class, failed.getCause());
  }
}
