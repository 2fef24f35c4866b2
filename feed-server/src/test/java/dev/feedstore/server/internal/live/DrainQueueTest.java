package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.testing.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DrainQueueTest {
  final ExecutorService pool = Executors.newFixedThreadPool(8);
  final AtomicInteger handOffs = new AtomicInteger();

  @AfterEach
  void shutDown() {
    pool.shutdownNow();
  }

  DrainQueue queue(int runners) {
    return new DrainQueue(task -> {
      handOffs.incrementAndGet();
      pool.execute(task);
    }, runners);
  }

  @Test
  void aThousandSignalsWhileRunnersAreBusyHandOffToThePoolOncePerRunner() throws Exception {
    DrainQueue queue = queue(2);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger ran = new AtomicInteger();
    AtomicInteger concurrent = new AtomicInteger();
    AtomicInteger mostConcurrent = new AtomicInteger();
    for (int i = 0; i < 1000; i++) {
      queue.execute(() -> {
        mostConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
        try {
          gate.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        concurrent.decrementAndGet();
        ran.incrementAndGet();
      });
    }
    gate.countDown();

    Await.until("every drain ran", () -> ran.get() == 1000);
    assertEquals(2, handOffs.get(), "hand-offs to the pool");
    assertTrue(mostConcurrent.get() <= 2, "drains at once: " + mostConcurrent.get());
  }

  @Test
  void drainsScheduledFromManyThreadsAllRunAndNoRunnerIsLeftCounted() throws Exception {
    DrainQueue queue = queue(3);
    AtomicInteger ran = new AtomicInteger();
    ExecutorService signallers = Executors.newFixedThreadPool(4);
    try {
      for (int t = 0; t < 4; t++) {
        signallers.execute(() -> {
          for (int i = 0; i < 20_000; i++) {
            queue.execute(ran::incrementAndGet);
          }
        });
      }
      Await.until("every drain ran", () -> ran.get() == 80_000);
    } finally {
      signallers.shutdownNow();
    }
    // Runners that went idle left no count behind: a new drain starts one again.
    int before = handOffs.get();
    CountDownLatch ranAfter = new CountDownLatch(1);
    Await.until("the runners went idle", () -> {
      queue.execute(ranAfter::countDown);
      return handOffs.get() > before;
    });
    assertTrue(ranAfter.await(10, TimeUnit.SECONDS));
  }

  @Test
  void aDrainIsRefusedWhenThePoolIsShutDownAndNoRunnerRuns() {
    DrainQueue queue = queue(2);
    pool.shutdown();

    assertThrows(RejectedExecutionException.class, () -> queue.execute(() -> {}));
  }

  @Test
  void drainsQueuedTogetherAllRunOnAsFewHandOffsAsRunners() throws Exception {
    DrainQueue queue = queue(2);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger ran = new AtomicInteger();
    queue.execute(() -> {
      try {
        gate.await(10, TimeUnit.SECONDS); // a runner busy while the others are queued
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    List<Runnable> drains = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      drains.add(ran::incrementAndGet);
    }

    assertEquals(List.of(), queue.executeAll(drains), "refused");
    gate.countDown();

    Await.until("every drain ran", () -> ran.get() == 1000);
    assertEquals(2, handOffs.get(), "hand-offs to the pool");
  }

  @Test
  void drainsQueuedTogetherAreAllRefusedWhenThePoolIsShutDownAndNoRunnerRuns() {
    DrainQueue queue = queue(2);
    pool.shutdown();
    List<Runnable> drains = List.of(() -> {}, () -> {});

    assertEquals(drains, queue.executeAll(drains));
  }

  @Test
  void runnersMustBeAtLeastOne() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> queue(0));
    assertEquals("runners must be >= 1, was 0", e.getMessage());
  }
}
