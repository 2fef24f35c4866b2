package dev.feedstore.server.internal.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A live query's subscriber gets a heartbeat only after a whole interval with nothing sent, and the
 * heartbeat carries the position the shared query stands at, every batch up to it sent. Ticks and
 * drains run when the test says, over a real SQLite file.
 */
class QuerySubscriptionHeartbeatTest {
  @TempDir Path dir;
  SqliteFeedStore store;
  PositionAuthority authority;
  final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  final SlowSubscriberTest.QueuedExecutor drains = new SlowSubscriberTest.QueuedExecutor();
  LiveQueries queries;
  final FeedId feed = TestBlocks.feedId();
  long sequence;

  @BeforeEach
  void start() {
    TestClock clock = new TestClock();
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, ServerSettings.DEFAULTS, clock, ClosedFeeds.NONE);
    queries = new LiveQueries(authority, drains, new RateLimitedLog(LoggerFactory.getLogger(getClass()), Level.WARN,
        "failures", clock, 10), timers, clock);
  }

  @AfterEach
  void stop() {
    timers.shutdownNow();
    authority.close(10_000);
    store.close();
  }

  void task(int id, String status) {
    Block block = TestBlocks.block(feed, "a", sequence++, "{\"id\":" + id + ",\"status\":\"" + status + "\"}");
    authority.append(new AppendCommand(SlowSubscriberTest.SPACE, Optional.empty(), List.of(block)));
  }

  @Test
  void aHeartbeatFollowsAWholeIdleIntervalAndCarriesWhereTheSharedQueryStands() {
    task(1, "open");
    SlowSubscriberTest.RecordingSink sink = new SlowSubscriberTest.RecordingSink();
    queries.open(SlowSubscriberTest.OPEN, Optional.empty(), sink, "c1", Caller.open("p"));
    drains.runAll();
    assertEquals(List.of("ack", "snapshot", "ready"), sink.names());

    tick();
    assertEquals(List.of("ack", "snapshot", "ready"), sink.names(), "ready was sent in this interval");
    tick();
    assertEquals(List.of("ack", "snapshot", "ready", "heartbeat"), sink.names(), "a whole interval idle");
    assertEquals(1, sink.heartbeats.get(0).position());

    task(2, "closed"); // changes nothing in the result, and moves the shared query on
    task(3, "open");
    Await.until("the batch of the third task", () -> {
      drains.runAll();
      return sink.batches.size() == 1;
    });
    tick();
    assertEquals(1, sink.heartbeats.size(), "a batch was sent in this interval");
    tick();
    assertEquals(2, sink.heartbeats.size());
    assertEquals(3, sink.heartbeats.get(1).position(), "every batch up to it was sent");
    assertEquals(sink.batches.get(0).position(), sink.heartbeats.get(1).position());
  }

  private void tick() {
    queries.tick();
    drains.runAll();
  }
}
