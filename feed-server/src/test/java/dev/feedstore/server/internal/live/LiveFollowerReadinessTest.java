package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ResolvedRead;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A live stream whose transport is not ready is not woken by the commits that follow (each wake
 * would find it not ready again); its transport's ready hook wakes it, and it then sends what those
 * commits added in one batch.
 */
class LiveFollowerReadinessTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  final TestClock clock = new TestClock();
  SqliteFeedStore store;
  PositionAuthority authority;

  @AfterEach
  void close() {
    authority.close(10_000);
    store.close();
  }

  @Test
  void commitsDoNotWakeAStreamWhoseTransportIsNotReadyAndItsReadyHookSendsThemInOneBatch() {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, ServerSettings.DEFAULTS, clock, ClosedFeeds.NONE);
    FeedId feed = TestBlocks.feedId();
    Block last = TestBlocks.block(feed, "a", 0);
    authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(last)));

    AtomicInteger drains = new AtomicInteger();
    Executor counting = task -> {
      drains.incrementAndGet();
      task.run();
    };
    ResolvedRead read = authority.resolve(new ReadRequest(SPACE, ScopeRequest.WHOLE_SPACE, Position.NONE, 100,
        Optional.empty(), false, OptionalLong.empty()));
    RecordingSink sink = new RecordingSink();
    LiveFollower follower = new LiveFollower(read, authority, sink, counting,
        new RateLimitedLog(LoggerFactory.getLogger(LiveFollowerReadinessTest.class), Level.WARN, "failures", clock, 10),
        "p", released -> authority.release(read));
    follower.start();
    assertEquals(List.of(1L), sink.positions, "history, then caught up");

    sink.ready = false;
    follower.signal(); // a commit finds the transport not ready: the drain runs once and learns it
    int drainsWhileNotReady = drains.get();
    for (int i = 1; i <= 3; i++) {
      last = TestBlocks.after(last, "a", i);
      authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(last)));
      follower.signal(); // as the commit does
    }
    // The authority signals a group's watchers after answering it, on one thread in commit order:
    // once an append to another space is answered, its signals of the three commits have run too.
    authority.append(new AppendCommand(SpaceId.of("other"), Optional.empty(), List.of(TestBlocks.block(feed, "b", 0))));
    assertEquals(drainsWhileNotReady, drains.get(), "three commits woke a stream whose transport was not ready");
    assertEquals(List.of(1L), sink.positions);

    sink.becomeReady();

    assertEquals(List.of(1L, 2L, 3L, 4L), sink.positions);
    assertEquals(List.of(3), sink.liveBatches, "the three commits' blocks in one batch");
    assertEquals(drainsWhileNotReady + 1, drains.get());
    follower.end(new IllegalStateException("test over"));
  }
}
