package dev.feedstore.server.internal.append;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.ServerToken;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.errors.ShuttingDownException;
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.internal.spaces.SpaceTail;
import dev.feedstore.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The queue's own rules, with a committer that records what it is given: queued appends form the
 * next group in arrival order within the block budget, neither a committer that throws nor a
 * caller whose answer fails stops the appends behind them, groups are committed on the queue's
 * executor and never on the submitting thread, a lone append is told without a hand-off when
 * nothing waits to be told, and an executor that takes no more work fails the appends that wait.
 */
class AppendQueueTest {
  final SpaceState space = new SpaceState(SpaceId.of("s"), ServerToken.random(), new SpaceTail(0, 10, 1 << 20), true);
  final List<List<PendingAppend>> groups = new ArrayList<>();

  @Test
  void appendsQueuedDuringACommitFormTheNextGroupsInArrivalOrderWithinTheBlockBudget() {
    List<PendingAppend> queued = new ArrayList<>();
    AppendQueue[] queue = new AppendQueue[1];
    queue[0] = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        // Arrive while the first group is being committed.
        for (int blocks : new int[] {2, 2, 1, 3}) {
          PendingAppend append = append(blocks);
          queued.add(append);
          queue[0].submit(append, () -> { });
        }
      }
      group.forEach(this::settle);
      return () -> { };
    }, 5, Runnable::run);

    PendingAppend first = append(1);
    queue[0].submit(first, () -> { });

    assertEquals(List.of(List.of(first), queued.subList(0, 3), queued.subList(3, 4)), groups,
        "2 + 2 + 1 blocks fill a budget of 5; the 3-block append is the next group");
    assertEquals(0, queue[0].waiting());
    assertEquals(3, queue[0].groups());
    assertEquals(5, queue[0].groupedAppends());
  }

  @Test
  void aCommitterThatThrowsFailsWhatItLeftUnsettledAndTheNextAppendsAreCommitted() {
    IllegalStateException broken = new IllegalStateException("broken");
    AppendQueue queue = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        throw broken;
      }
      group.forEach(this::settle);
      return () -> { };
    }, 1000, Runnable::run);
    PendingAppend first = append(1);
    queue.append(first);
    assertSame(broken, assertThrows(IllegalStateException.class, first::outcome));

    PendingAppend second = append(1);
    queue.append(second);
    assertEquals(1, second.outcome().positions().length);
  }

  @Test
  void aCallerWhoseAnswerFailsDoesNotStopTheAppendsQueuedBehindIt() {
    List<PendingAppend> told = new ArrayList<>();
    AppendQueue[] queue = new AppendQueue[1];
    PendingAppend behind = append(1);
    queue[0] = new AppendQueue(group -> {
      groups.add(group);
      if (groups.size() == 1) {
        queue[0].submit(behind, () -> told.add(behind));
      }
      group.forEach(this::settle);
      return () -> { };
    }, 1000, Runnable::run);
    queue[0].submit(append(1), () -> {
      throw new IllegalStateException("the client went away");
    });
    assertEquals(List.of(behind), told);
  }

  @Test
  void groupsAreCommittedOnTheExecutorAndSubmitReturnsWhileTheCommitWaits() throws Exception {
    ExecutorService commits = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-commit"));
    try {
      CountDownLatch release = new CountDownLatch(1);
      List<String> committingThreads = new CopyOnWriteArrayList<>();
      AppendQueue queue = new AppendQueue(group -> {
        committingThreads.add(Thread.currentThread().getName());
        groups.add(group);
        await(release);
        group.forEach(this::settle);
        return () -> { };
      }, 1000, commits);
      List<String> toldOn = new CopyOnWriteArrayList<>();
      PendingAppend first = append(1);
      queue.submit(first, () -> toldOn.add(Thread.currentThread().getName()));
      // The first group's commit waits for the latch; submitting more neither waits nor commits here.
      Await.until("the first group is committing", Duration.ofSeconds(10), () -> committingThreads.size() == 1);
      PendingAppend second = append(1);
      PendingAppend third = append(2);
      queue.submit(second, () -> toldOn.add(Thread.currentThread().getName()));
      queue.submit(third, () -> toldOn.add(Thread.currentThread().getName()));
      assertEquals(2, queue.waiting());
      assertFalse(first.settled());
      release.countDown();
      Await.until("all three appends are told", Duration.ofSeconds(10), () -> toldOn.size() == 3);
      assertEquals(List.of(List.of(first), List.of(second, third)), groups);
      assertEquals(List.of("test-commit", "test-commit"), committingThreads);
      assertEquals(List.of("test-commit", "test-commit", "test-commit"), toldOn);
    } finally {
      commits.shutdownNow();
    }
  }

  @Test
  void theNextGroupCommitsWhileTheGroupBeforeItIsAnsweredAndGroupsAreAnsweredInOrder() throws Exception {
    ExecutorService commits = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-commit"));
    ExecutorService answers = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-answer"));
    try {
      CountDownLatch holding = new CountDownLatch(1);
      CountDownLatch hold = new CountDownLatch(1);
      CountDownLatch answering = new CountDownLatch(1);
      AppendQueue queue = new AppendQueue(group -> {
        groups.add(group);
        if (groups.size() == 1) {
          holding.countDown();
          await(hold); // so that the next two appends form one group
        }
        group.forEach(this::settle);
        return () -> { };
      }, 1000, commits, answers);
      List<String> told = new CopyOnWriteArrayList<>();
      PendingAppend zero = append(1);
      queue.submit(zero, () -> told.add("zero"));
      await(holding);
      PendingAppend first = append(1);
      PendingAppend firstToo = append(1);
      queue.submit(first, () -> {
        told.add("first on " + Thread.currentThread().getName());
        await(answering); // the answer of the group of two is held...
      });
      queue.submit(firstToo, () -> told.add("first too on " + Thread.currentThread().getName()));
      hold.countDown();
      Await.until("the group of two's answer is held", Duration.ofSeconds(10), () -> told.size() == 2);
      PendingAppend second = append(1);
      queue.submit(second, () -> told.add("second on " + Thread.currentThread().getName()));

      // ...and the next group commits meanwhile, and is told after it, though it is one append.
      Await.until("the third group is committed", Duration.ofSeconds(10), second::settled);
      assertEquals(List.of(List.of(zero), List.of(first, firstToo), List.of(second)), groups);
      assertEquals(List.of("zero", "first on test-answer"), told);
      answering.countDown();
      Await.until("every append is told", Duration.ofSeconds(10), () -> told.size() == 4);
      assertEquals(List.of("zero", "first on test-answer", "first too on test-answer", "second on test-answer"),
          told);
    } finally {
      commits.shutdownNow();
      answers.shutdownNow();
    }
  }

  @Test
  void aLoneAppendIsToldByTheCommittingThreadAndItsWatchersSignalledAfterOnTheAnsweringOne() throws Exception {
    ExecutorService commits = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-commit"));
    ExecutorService answers = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "test-answer"));
    try {
      List<String> steps = new CopyOnWriteArrayList<>();
      AppendQueue queue = new AppendQueue(group -> {
        groups.add(group);
        group.forEach(this::settle);
        return () -> steps.add("watchers on " + Thread.currentThread().getName());
      }, 1000, commits, answers);
      PendingAppend lone = append(1);

      queue.submit(lone, () -> steps.add("told on " + Thread.currentThread().getName()));

      Await.until("the watchers are signalled", Duration.ofSeconds(10), () -> steps.size() == 2);
      assertEquals(List.of("told on test-commit", "watchers on test-answer"), steps);
    } finally {
      commits.shutdownNow();
      answers.shutdownNow();
    }
  }

  @Test
  void anExecutorThatTakesNoMoreWorkFailsTheAppendAsShuttingDown() {
    ExecutorService commits = Executors.newSingleThreadExecutor();
    commits.shutdown();
    AppendQueue queue = new AppendQueue(group -> {
      groups.add(group);
      group.forEach(this::settle);
      return () -> { };
    }, 1000, commits);
    PendingAppend refused = append(1);
    List<PendingAppend> told = new ArrayList<>();
    queue.submit(refused, () -> told.add(refused));
    assertEquals(List.of(refused), told);
    assertThrows(ShuttingDownException.class, refused::outcome);
    assertEquals(List.of(), groups);
    assertEquals(0, queue.waiting());

    // A blocking append is refused the same way, and returns.
    PendingAppend blocking = append(1);
    queue.append(blocking);
    assertThrows(ShuttingDownException.class, blocking::outcome);
  }

  private static void await(CountDownLatch latch) {
    Await.open("the test lets the thread go on", Duration.ofSeconds(30), latch);
  }

  private PendingAppend append(int blocks) {
    List<dev.feedstore.core.Block> list = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      list.add(TestBlocks.block(TestBlocks.feedId(), "a", i));
    }
    return new PendingAppend(space, Optional.empty(), list);
  }

  private void settle(PendingAppend append) {
    append.committed(new AppendWork.Outcome(new long[append.blocks().size()], new long[append.blocks().size()], List.of(), Map.of(), 1, null));
  }
}
