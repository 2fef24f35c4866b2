package dev.feedstore.server.internal.queries;

import static dev.feedstore.server.settings.ServerSettings.LIVE_QUERY_RECENT_ROWS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.testing.Await;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A subscriber whose transport stops taking events holds no queue: the shared query keeps its few
 * recent batches for everyone, and the slow subscriber, ready again, catches up from storage with
 * one batch of its own that takes it from its position to the shared state. Drains run when the
 * test says ({@link QueuedExecutor}), over a real SQLite file.
 */
class SlowSubscriberTest extends LiveQueriesFixture {
  static final LiveQuery OPEN = LiveQuery.parse("space:s key:/id where /status = \"open\"");

  @Override
  ServerSettings settings() {
    return ServerSettings.newBuilder().set(LIVE_QUERY_RECENT_ROWS, 2L).build();
  }

  @Test
  void aSubscriberThatStoppedReadingCatchesUpFromStorageWithOneBatchOfItsOwn() {
    task(1, "open");
    RecordingSink fast = new RecordingSink();
    RecordingSink slow = new RecordingSink();
    queries.open(OPEN, Optional.empty(), fast, "c1", Caller.open("p"));
    queries.open(OPEN, Optional.empty(), slow, "c2", Caller.open("p"));
    drains.runAll();
    assertEquals(List.of("ack", "snapshot", "ready"), fast.names());
    assertEquals(List.of("ack", "snapshot", "ready"), slow.names());

    slow.ready = false;
    for (int id = 2; id <= 6; id++) {
      task(id, "open");
      awaitBatches(fast, id - 1);
    }
    assertEquals(5, fast.batches.size(), "the reading subscriber got each commit's batch");
    assertEquals(3, slow.names().size(), "the stalled one got nothing, and nothing waits for it but its position");

    slow.ready = true;
    slow.onReady.run();
    drains.runAll();
    assertEquals(1, slow.batches.size(), "one batch of its own, from storage");
    QueryBatch caughtUp = slow.batches.get(0);
    assertEquals(-1, caughtUp.seq(), "computed from storage, not a shared batch");
    assertEquals(fast.batches.get(4).position(), caughtUp.position());
    assertEquals(List.of("2", "3", "4", "5", "6"), caughtUp.changes().entered().stream().map(r -> r.id().toString())
        .toList());

    task(7, "open");
    awaitBatches(fast, 6);
    Await.until("the slow subscriber's next batch", () -> {
      drains.runAll();
      return slow.batches.size() == 2;
    });
    assertEquals(fast.batches.get(5), slow.batches.get(1), "and then the shared batches again, the same object");
  }

  /** Runs queued drains when the test says, on the test's thread. Thread-safe. */
  static final class QueuedExecutor implements Executor {
    private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();

    @Override
    public void execute(Runnable task) {
      queued.add(task);
    }

    void runAll() {
      Runnable task;
      while ((task = queued.poll()) != null) {
        task.run();
      }
    }
  }

  /** Records what a subscription sends; its readiness is the test's. Confined to the drain and the test. */
  static final class RecordingSink implements QuerySink {
    final List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<QueryBatch> batches = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<ResumeToken> heartbeats = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile boolean ready = true;
    Runnable onReady;

    List<String> names() {
      return List.copyOf(events);
    }

    @Override
    public void start(Runnable onReady, Runnable onGone) {
      this.onReady = onReady;
    }

    @Override
    public boolean isReady() {
      return ready;
    }

    @Override
    public void ack(Ack ack) {
      events.add("ack");
    }

    @Override
    public void reset(String reason, ResumeToken fence) {
      events.add("reset");
    }

    @Override
    public void snapshot(List<Row> rows, ResumeToken fence) {
      events.add("snapshot");
    }

    @Override
    public void ready(ResumeToken at) {
      events.add("ready");
    }

    @Override
    public void changes(QueryBatch batch) {
      events.add("changes");
      batches.add(batch);
    }

    @Override
    public void heartbeat(ResumeToken at) {
      events.add("heartbeat");
      heartbeats.add(at);
    }

    @Override
    public void end(RuntimeException reason) {
      events.add("end " + reason);
      assertTrue(false, "ended: " + reason);
    }
  }
}
