package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.QueryRequest;
import dev.feedstore.proto.v1.QueryResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two servers over one database file, each with a store of its own (its own connections, as two
 * processes would have): positions come from the space's row in the store, never from a server's
 * memory, so appends through either server get every position once, densely, in commit order.
 */
class SharedStoreTest {
  @TempDir Path dir;

  @Test
  void appendsThroughTwoServersOnOneFileGetEveryPositionOnceInTurn() {
    Path file = dir.resolve("feeds.db");
    FeedId feed = TestBlocks.feedId();
    try (TestServer a = TestServer.on(file).start(); TestServer b = TestServer.on(file).start()) {
      List<Long> positions = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        TestServer through = i % 2 == 0 ? a : b;
        positions.addAll(through.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 2L * i, 2)))
            .getPositionsList());
      }

      assertEquals(LongStream.rangeClosed(1, 12).boxed().toList(), positions);
      for (TestServer server : List.of(a, b)) {
        QueryResponse page = server.blocking().query(QueryRequest.newBuilder().setSpaceId("s").setLimit(100).build());
        assertEquals(12, page.getMaxPosition());
        assertEquals(positions, page.getBlocksList().stream().map(block -> block.getPosition()).toList());
      }
    }
  }

  @Test
  void aWatchOnOneServerGetsAppendsThroughTheOtherGaplessOnceItsOwnServerCommitsToTheSpace() {
    Path file = dir.resolve("feeds.db");
    FeedId feed = TestBlocks.feedId();
    try (TestServer a = TestServer.on(file).start(); TestServer b = TestServer.on(file).start()) {
      a.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 0, 1)));
      EventRecorder<WatchEvent> events = new EventRecorder<>();
      a.async().watch(WatchRequest.newBuilder().setSpaceId("s").build(), events);
      assertEquals(List.of(1L), positions(events.next()));
      assertTrue(events.next().hasCaughtUp());

      b.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 1, 2)));
      // Nothing tells server a of b's commit: cross-process wake-ups are not part of this store.
      a.blocking().append(Wire.append("s", Wire.blocks(feed, "a", 3, 1)));

      List<Long> delivered = new ArrayList<>();
      while (delivered.size() < 3) {
        delivered.addAll(positions(events.next()));
      }
      assertEquals(List.of(2L, 3L, 4L), delivered, "b's blocks read from the store, then a's, none twice");
    }
  }

  @Test
  void concurrentAppendsThroughTwoServersOnOneFileGetDensePositions() throws Exception {
    Path file = dir.resolve("feeds.db");
    int writers = 4;
    int appendsEach = 25;
    try (TestServer a = TestServer.on(file).start(); TestServer b = TestServer.on(file).start()) {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      try {
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          TestServer through = w % 2 == 0 ? a : b;
          FeedId feed = TestBlocks.feedId();
          results.add(pool.submit(() -> {
            List<Long> got = new ArrayList<>();
            for (int i = 0; i < appendsEach; i++) {
              got.addAll(through.blocking().append(Wire.append("s", Wire.blocks(feed, "w", 3L * i, 3)))
                  .getPositionsList());
            }
            return got;
          }));
        }
        List<Long> all = new ArrayList<>();
        for (Future<List<Long>> result : results) {
          List<Long> got = result.get();
          assertEquals(got.stream().sorted().toList(), got, "each writer's positions rise");
          all.addAll(got);
        }
        Collections.sort(all);
        assertEquals(LongStream.rangeClosed(1, (long) writers * appendsEach * 3).boxed().toList(), all);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private static List<Long> positions(WatchEvent event) {
    return event.getBlocks().getBlocksList().stream().map(block -> block.getPosition()).toList();
  }
}
