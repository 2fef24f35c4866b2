package dev.feedstore.server.internal.live;

import static dev.feedstore.server.settings.ServerSettings.TAIL_BLOCKS;
import static dev.feedstore.server.settings.ServerSettings.WATCH_BATCH_BLOCKS;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
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
 * One space of an authority over a real SQLite file, for tests of its live followers (and of the
 * transports' sinks, in their own packages): appends blocks of one feed, or of another beside it,
 * and opens followers of the whole space or of a scope that write to a sink and run on the executor
 * a test gives, each counting its releases. Not thread-safe beyond what the authority is; closing it
 * closes the authority and the store.
 */
public final class FollowedSpace implements AutoCloseable {
  static final SpaceId SPACE = SpaceId.of("s");
  /**
   * Batches of 4 blocks and recent blocks of 8: a few commits made while streams wait leave them
   * behind the recent blocks, at points a few pages apart.
   */
  public static final ServerSettings SMALL_BATCHES = ServerSettings.newBuilder().set(WATCH_BATCH_BLOCKS, 4)
      .set(TAIL_BLOCKS, 8).build();

  final SqliteFeedStore store;
  public final PositionAuthority authority;
  private final TestClock clock = new TestClock();
  private final FeedId feed = TestBlocks.feedId();
  private final FeedId other = TestBlocks.feedId();
  private Block last;
  private Block lastOther;
  private long sequence;
  private long otherSequence;

  public FollowedSpace(Path dir, ServerSettings settings) {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, settings, clock, ClosedFeeds.NONE);
  }

  /** The feed {@link #append} writes to. */
  public FeedId feed() {
    return feed;
  }

  /** Appends {@code count} blocks of the feed in one append, each after the one before. */
  public void append(int count) {
    List<Block> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      last = last == null ? TestBlocks.block(feed, "a", sequence) : TestBlocks.after(last, "a", sequence);
      sequence++;
      blocks.add(last);
    }
    authority.append(new AppendCommand(SPACE, Optional.empty(), blocks));
  }

  /** Appends {@code count} blocks of another feed of the space, which a scope of {@link #feed} leaves out. */
  public void appendElsewhere(int count) {
    List<Block> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      lastOther = lastOther == null ? TestBlocks.block(other, "b", otherSequence)
          : TestBlocks.after(lastOther, "b", otherSequence);
      otherSequence++;
      blocks.add(lastOther);
    }
    authority.append(new AppendCommand(SPACE, Optional.empty(), blocks));
  }

  /**
   * Returns once the signals of the commits so far have run: the authority signals a group's
   * watchers after answering it, on one thread in commit order, so once an append to another space
   * is answered, the signals of those before it have run too.
   */
  public void committedAndSignalled() {
    authority.append(new AppendCommand(SpaceId.of("other"), Optional.empty(),
        List.of(TestBlocks.block(TestBlocks.feedId(), "b", 0))));
  }

  /** A follower of the whole space after {@code cursor}, not started. */
  Follower follower(long cursor, LiveSink sink, Executor executor) {
    return follower(Scope.WHOLE_SPACE, cursor, sink, executor);
  }

  /** A follower of {@code scope} after {@code cursor}, not started. */
  public Follower follower(Scope scope, long cursor, LiveSink sink, Executor executor) {
    ResolvedRead read = authority.resolve(new ReadRequest(SPACE, ScopeRequest.of(scope), Position.of(cursor), 100,
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
  public record Follower(LiveFollower follower, SpaceState space, AtomicInteger releases) {
    /** Starts the follower: it hooks its sink and the space's tail and schedules its first drain. */
    public void start() {
      follower.start();
    }
  }

  @Override
  public void close() {
    authority.close(10_000);
    store.close();
  }
}
