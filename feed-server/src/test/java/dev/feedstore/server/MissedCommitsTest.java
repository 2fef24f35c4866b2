package dev.feedstore.server;

import static dev.feedstore.server.testing.WatchEvents.positionsUpTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.OutageFeedStore;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After commits of other processes may have been missed (a shared store's lost listening
 * connection), the server reads every space's position again, and a read that fails (the pool has
 * not reconnected yet) is read again until it succeeds, without holding up the other spaces or the
 * appends. Two servers on one file are two processes; nothing tells {@code here} of {@code other}'s
 * commits but the re-read.
 */
class MissedCommitsTest {
  private static final SpaceId QUIET = SpaceId.of("quiet");

  @TempDir Path dir;
  private final FeedId feed = TestBlocks.feedId();
  private OutageFeedStore outage;

  private TestServer here() {
    return TestServer.on(dir.resolve("feeds.db")).wrap(store -> outage = new OutageFeedStore(store)).start();
  }

  private TestServer other() {
    return TestServer.on(dir.resolve("feeds.db")).start();
  }

  @Test
  void aQuietSpacesWatcherSeesWhatAnotherProcessCommittedOnceItsReReadSucceedsAgain() {
    try (TestServer here = here(); TestServer other = other()) {
      EventRecorder<WatchEvent> watch = watchAfterOneBlock(here, QUIET);
      other.blocking().append(Wire.append(QUIET.value(), Wire.blocks(feed, "a", 1, 2)));

      outage.failReads(QUIET);
      outage.missCommits();
      Await.until("the failed re-read is tried again", () -> outage.failedReads(QUIET) >= 2);
      outage.healReads(QUIET);

      assertEquals(List.of(2L, 3L), positionsUpTo(watch, 3), "what the other process committed, once read again");
    }
  }

  @Test
  void aSpaceWhoseReReadFailsDoesNotHoldUpTheOthers() {
    try (TestServer here = here(); TestServer other = other()) {
      Map<SpaceId, EventRecorder<WatchEvent>> watches = new LinkedHashMap<>();
      for (String space : List.of("broken", "a", "b", "c")) {
        watches.put(SpaceId.of(space), watchAfterOneBlock(here, SpaceId.of(space)));
        other.blocking().append(Wire.append(space, Wire.blocks(feed, "a", 1, 1)));
      }
      SpaceId broken = SpaceId.of("broken");

      outage.failReads(broken);
      outage.missCommits();

      for (SpaceId space : List.of(SpaceId.of("a"), SpaceId.of("b"), SpaceId.of("c"))) {
        assertEquals(List.of(2L), positionsUpTo(watches.get(space), 2), space + " while 'broken' cannot be read");
      }
      assertTrue(outage.failedReads(broken) >= 1);
      outage.healReads(broken);
      assertEquals(List.of(2L), positionsUpTo(watches.get(broken), 2), "and 'broken' once it can");
    }
  }

  @Test
  void appendsGoOnWhileAReReadWaitsForTheDatabase() throws Exception {
    try (TestServer here = here()) {
      here.blocking().append(Wire.append(QUIET.value(), Wire.blocks(feed, "a", 0, 1)));
      CountDownLatch held = outage.holdReads(QUIET);
      CompletableFuture<Void> told = CompletableFuture.runAsync(outage::missCommits);
      outage.awaitHeldRead();

      CompletableFuture<AppendResponse> append = CompletableFuture.supplyAsync(
          () -> here.blocking().append(Wire.append("busy", Wire.blocks(feed, "a", 0, 1))));
      try {
        assertEquals(List.of(1L), append.get(20, TimeUnit.SECONDS).getPositionsList(),
            "an append commits while the re-read of another space waits for the database");
      } finally {
        held.countDown();
      }
      told.get(20, TimeUnit.SECONDS);
    }
  }

  /** A space with one block appended through {@code server}, and a Watch of it there that delivered it. */
  private EventRecorder<WatchEvent> watchAfterOneBlock(TestServer server, SpaceId space) {
    server.blocking().append(Wire.append(space.value(), Wire.blocks(feed, "a", 0, 1)));
    EventRecorder<WatchEvent> watch = new EventRecorder<>();
    server.async().watch(WatchRequest.newBuilder().setSpaceId(space.value()).build(), watch);
    assertEquals(List.of(1L), positionsUpTo(watch, 1));
    return watch;
  }
}
