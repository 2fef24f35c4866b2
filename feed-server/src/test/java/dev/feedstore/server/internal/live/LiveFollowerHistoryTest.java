package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.CursorCompactedException;
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
import dev.feedstore.server.internal.errors.HistoryRolledBackException;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.internal.spaces.KnownHistory;
import dev.feedstore.server.internal.spaces.SpaceTail;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * An open stream whose space's history changes under it: it never sends what a compaction removed
 * below it, though memory may still hold it, nor anything of a history that went back.
 */
class LiveFollowerHistoryTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  final TestClock clock = new TestClock();
  final FeedId feed = TestBlocks.feedId();
  /** Drains of the streams that run only when the test says ({@link #runQueued}). */
  final Queue<Runnable> queued = new ArrayDeque<>();
  SqliteFeedStore store;
  PositionAuthority authority;
  Block last;

  @BeforeEach
  void open() {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    // Ten recent blocks in memory, so that a stream more than ten behind reads shared pages.
    authority = new PositionAuthority(store, ServerSettings.newBuilder().set(TAIL_BLOCKS, 10).set(WATCH_BATCH_BLOCKS, 100).build(),
        clock, ClosedFeeds.NONE);
  }

  @AfterEach
  void close() {
    authority.close(10_000);
    store.close();
  }

  @Test
  void aStreamACompactionPassedEndsCompactedThoughThePagesAfterItAreStillKept() {
    append(100);
    RecordingSink behind = new RecordingSink();
    follow(behind, queued::add);
    runQueued();
    assertEquals(LongStream.rangeClosed(1, 100).boxed().toList(), behind.positions, "history, then caught up");
    append(150); // the stream is signalled; its drain waits in the queue

    RecordingSink ahead = new RecordingSink();
    follow(ahead, Runnable::run); // reads the pages after 100 and 200 from storage, and keeps them
    assertEquals(250, ahead.positions.size());
    authority.compact(SPACE, Position.of(150));
    runQueued();

    assertInstanceOf(CursorCompactedException.class, behind.ended, "not the kept page of what was removed");
    assertEquals(100, behind.positions.size());
  }

  @Test
  void aStreamWhoseSpacesHistoryWentBackEndsRolledBackAndSendsNothingMore() {
    append(5);
    RecordingSink sink = new RecordingSink();
    LiveFollower follower = follow(sink, queued::add);
    runQueued();
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), sink.positions, "history, then caught up");
    append(2); // the stream is signalled; its drain waits in the queue
    SpaceTail tail = follower.read().space().tail();

    // The store was restored to position 3 and the server, having missed commits, reads it again.
    assertTrue(tail.resync(tail.known(), new KnownHistory.Stored(3, OptionalLong.empty(), 0)));
    runQueued();

    HistoryRolledBackException ended = assertInstanceOf(HistoryRolledBackException.class, sink.ended);
    assertEquals(3, ended.highest());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), sink.positions, "nothing after the history went back");
  }

  private void append(int count) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      last = last == null ? TestBlocks.block(feed, "a", 0) : TestBlocks.after(last, "a", last.sequence().value() + 1);
      blocks.add(last);
    }
    authority.append(new AppendCommand(SPACE, Optional.empty(), blocks));
  }

  /** A stream of the whole space from its start, to {@code sink}, drained on {@code executor}. */
  private LiveFollower follow(RecordingSink sink, Executor executor) {
    ResolvedRead read = authority.resolve(new ReadRequest(SPACE, ScopeRequest.WHOLE_SPACE, Position.NONE, 100,
        Optional.empty(), false, OptionalLong.empty()));
    LiveFollower follower = new LiveFollower(read, authority, sink, executor,
        new RateLimitedLog(LoggerFactory.getLogger(LiveFollowerHistoryTest.class), Level.WARN, "failures", clock, 10),
        "p", released -> authority.release(read));
    follower.start();
    return follower;
  }

  private void runQueued() {
    for (Runnable task = queued.poll(); task != null; task = queued.poll()) {
      task.run();
    }
  }
}
