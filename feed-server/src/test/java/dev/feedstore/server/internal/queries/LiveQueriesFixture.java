package dev.feedstore.server.internal.queries;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
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
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The base of tests of live queries of an authority over a real SQLite file in the test's temporary
 * directory, whose drains run when the test says ({@link SlowSubscriberTest.QueuedExecutor}), with
 * task documents ({@code {"id":N,"status":S}}) appended to space {@code s} one commit each. A test
 * gives other settings by overriding {@link #settings}. Confined to the test's thread but for what
 * the drains touch.
 */
abstract class LiveQueriesFixture {
  static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  SqliteFeedStore store;
  PositionAuthority authority;
  final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  final SlowSubscriberTest.QueuedExecutor drains = new SlowSubscriberTest.QueuedExecutor();
  LiveQueries queries;
  private final FeedId feed = TestBlocks.feedId();
  private long sequence;

  /** The server's settings. */
  ServerSettings settings() {
    return ServerSettings.DEFAULTS;
  }

  @BeforeEach
  void open() {
    TestClock clock = new TestClock();
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, settings(), clock, ClosedFeeds.NONE);
    queries = new LiveQueries(authority, drains, new RateLimitedLog(LoggerFactory.getLogger(getClass()), Level.WARN,
        "failures", clock, 10), timers, clock);
  }

  /** Appends a version of task {@code id} with {@code status}, one commit. */
  void task(int id, String status) {
    Block block = TestBlocks.block(feed, "a", sequence++, "{\"id\":" + id + ",\"status\":\"" + status + "\"}");
    authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(block)));
  }

  /** Runs the drains until {@code sink} holds {@code count} batches: the authority signals after an append returns. */
  void awaitBatches(SlowSubscriberTest.RecordingSink sink, int count) {
    Await.until(count + " batches", () -> {
      drains.runAll();
      return sink.batches.size() >= count;
    });
  }

  @AfterEach
  void close() {
    timers.shutdownNow();
    authority.close(10_000);
    store.close();
  }
}
