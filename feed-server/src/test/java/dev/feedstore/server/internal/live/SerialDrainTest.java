package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Drains scheduled together ({@link SerialDrain#scheduleAll}) run each once more, as a schedule of
 * each would: one already scheduled is not handed to the executor again, and a drain the executor
 * refuses runs its refusal.
 */
class SerialDrainTest {
  @Test
  void drainsScheduledTogetherRunOnceMoreEachAndOneAlreadyScheduledIsNotQueuedAgain() {
    ManualExecutor runner = new ManualExecutor();
    DrainQueue queue = new DrainQueue(runner, 1);
    AtomicInteger first = new AtomicInteger();
    AtomicInteger second = new AtomicInteger();
    SerialDrain a = new SerialDrain(queue, () -> first.incrementAndGet() < 0, () -> {});
    SerialDrain b = new SerialDrain(queue, () -> second.incrementAndGet() < 0, () -> {});
    a.schedule(); // queued already: the batch only counts it

    SerialDrain.scheduleAll(List.of(a, b));
    assertEquals(1, runner.queued(), "one runner for both");
    runner.runAll();

    assertEquals(2, first.get(), "a turn for each schedule of a, from its one drain");
    assertEquals(1, second.get());
    assertEquals(0, runner.queued());
  }

  @Test
  void drainsTheExecutorRefusesRunTheirRefusal() {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    pool.shutdown();
    DrainQueue queue = new DrainQueue(pool, 1);
    AtomicInteger refused = new AtomicInteger();
    SerialDrain a = new SerialDrain(queue, () -> false, refused::incrementAndGet);
    SerialDrain b = new SerialDrain(queue, () -> false, refused::incrementAndGet);

    SerialDrain.scheduleAll(List.of(a, b));

    assertEquals(2, refused.get());
  }
}
