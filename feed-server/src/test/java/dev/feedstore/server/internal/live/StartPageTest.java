package dev.feedstore.server.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.internal.append.ClosedFeeds;
import dev.feedstore.server.internal.authority.AppendCommand;
import dev.feedstore.server.internal.authority.PositionAuthority;
import dev.feedstore.server.internal.authority.QueryResult;
import dev.feedstore.server.internal.authority.ReadRequest;
import dev.feedstore.server.internal.authority.ResolvedRead;
import dev.feedstore.server.internal.authority.ScopeRequest;
import dev.feedstore.server.internal.monitoring.RateLimitedLog;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.TestClock;
import dev.feedstore.sqlite.SqliteFeedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * A read from a time resolves the time in the snapshot it reads its first page from ({@link
 * PositionAuthority#startPage}): a compaction between the request and that page moves the start to
 * the new floor instead of ending the read.
 */
class StartPageTest {
  private static final SpaceId SPACE = SpaceId.of("s");

  @TempDir Path dir;
  final TestClock clock = new TestClock();
  SqliteFeedStore store;
  PositionAuthority authority;
  long thirdReceived;

  /** Six blocks, one a second: the third is received two seconds after the first. */
  @BeforeEach
  void sixBlocksASecondApart() {
    store = SqliteFeedStore.open(dir.resolve("feeds.db"));
    authority = new PositionAuthority(store, ServerSettings.DEFAULTS, clock, ClosedFeeds.NONE);
    FeedId feed = TestBlocks.feedId();
    Block previous = null;
    for (int i = 0; i < 6; i++) {
      Block block = previous == null ? TestBlocks.block(feed, "a", 0) : TestBlocks.after(previous, "a", i);
      if (i == 2) {
        thirdReceived = clock.millis();
      }
      authority.append(new AppendCommand(SPACE, Optional.empty(), List.of(block)));
      previous = block;
      clock.advance(Duration.ofSeconds(1));
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aLiveStreamFromATimeStartsAtTheFloorWhenACompactionRanAfterItsRequest() {
    ResolvedRead read = authority.resolve(fromTheThirdBlock());
    authority.compact(SPACE, Position.of(4));

    RecordingSink sink = new RecordingSink();
    LiveFollower follower = new LiveFollower(read, authority, sink, Runnable::run,
        new RateLimitedLog(LoggerFactory.getLogger(StartPageTest.class), Level.WARN, "failures", clock, 10), "p",
        released -> authority.release(read));
    follower.start();

    assertNull(sink.ended, "the stream goes on from the floor");
    assertEquals(List.of(5L, 6L), sink.positions);
    assertEquals(OptionalLong.of(4), sink.firstHead.startCursor(), "the start it reports is the floor");
    assertEquals(4, sink.firstHead.floor());
    follower.end(new IllegalStateException("test over"));
  }

  @Test
  void aQueryFromATimeStartsAfterTheLastBlockReceivedBeforeIt() {
    QueryResult result = authority.query(fromTheThirdBlock());
    assertEquals(OptionalLong.of(2), result.startCursor());
    assertEquals(List.of(3L, 4L, 5L, 6L), result.page().blocks().stream().map(b -> b.position().value()).toList());

    authority.compact(SPACE, Position.of(4));
    QueryResult compacted = authority.query(fromTheThirdBlock());
    assertEquals(OptionalLong.of(4), compacted.startCursor(), "after a compaction past it, the floor");
    assertEquals(List.of(5L, 6L), compacted.page().blocks().stream().map(b -> b.position().value()).toList());
  }

  private ReadRequest fromTheThirdBlock() {
    return new ReadRequest(SPACE, ScopeRequest.WHOLE_SPACE, Position.NONE, 100, Optional.empty(), false,
        OptionalLong.of(thirdReceived));
  }
}
