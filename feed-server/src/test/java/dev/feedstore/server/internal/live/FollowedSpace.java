package dev.feedstore.server.internal.live;

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
import dev.feedstore.server.internal.spaces.SpaceState;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * One space of an authority over a real SQLite file, for tests of its live followers: appends
 * blocks of one feed and opens followers of the whole space that write to a sink and run on the
 * executor a test gives, each counting its releases. Not thread-safe beyond what the authority is;
 * closing it closes the authority and the store.
 */
final class FollowedSpace implements AutoCloseable {
  static final SpaceId SPACE = SpaceId.of("s");

  final SqliteFeedStore store;
  final PositionAuthority authority;
  private final TestClock clock = new TestClock();
  private final FeedId feed = TestBlocks.feedId();
  private Block last;
  private long sequence;

  FollowedSpace(Path dir, ServerSettings settings) {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, settings, clock, ClosedFeeds.NONE);
  }

  /** Appends {@code count} blocks of the feed in one append, each after the one before. */
  void append(int count) {
    List<Block> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      last = last == null ? TestBlocks.block(feed, "a", sequence) : TestBlocks.after(last, "a", sequence);
      sequence++;
      blocks.add(last);
    }
    authority.append(new AppendCommand(SPACE, Optional.empty(), blocks));
  }

  /** A follower of the whole space after {@code cursor}, not started. */
  Follower follower(long cursor, LiveSink sink, Executor executor) {
    ResolvedRead read = authority.resolve(new ReadRequest(SPACE, ScopeRequest.WHOLE_SPACE, Position.of(cursor), 100,
        Optional.empty(), false, OptionalLong.empty()));
    AtomicInteger releases = new AtomicInteger();
    LiveFollower follower = new LiveFollower(read, authority, sink, executor,
        new RateLimitedLog(LoggerFactory.getLogger(FollowedSpace.class), Level.WARN, "failures", clock, 10), "p",
        released -> {
          releases.incrementAndGet();
          authority.release(read);
        });
    return new Follower(follower, read.space(), releases);
  }

  /** A follower, its space's state, and how often it was released. */
  record Follower(LiveFollower follower, SpaceState space, AtomicInteger releases) {}

  @Override
  public void close() {
    authority.close(10_000);
    store.close();
  }
}
