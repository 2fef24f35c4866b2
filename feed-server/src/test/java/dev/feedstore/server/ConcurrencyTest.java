package dev.feedstore.server;

import static dev.feedstore.server.settings.ServerSettings.HEARTBEAT_MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.AppendResponse;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.settings.ServerSettings;
import dev.feedstore.server.testing.Calls;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrencyTest {
  @TempDir Path dir;
  TestServer t;
  final ExecutorService threads = Executors.newFixedThreadPool(4);

  @BeforeEach
  void start() {
    t = TestServer.on(dir.resolve("feeds.db"))
        .settings(ServerSettings.newBuilder().set(HEARTBEAT_MS, 3_600_000).build())
        .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    threads.shutdownNow();
    threads.awaitTermination(10, TimeUnit.SECONDS);
    t.close();
  }

  @Test
  void threadsAppendingToOneSpaceGetUniqueDenseIncreasingPositionsAndNothingIsLost() throws Exception {
    FeedId feed = TestBlocks.feedId();
    List<Future<List<Long>>> results = new ArrayList<>();
    for (int thread = 0; thread < 4; thread++) {
      String actor = "actor" + thread;
      results.add(threads.submit(() -> {
        List<Long> positions = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          AppendResponse response = t.blocking().append(Wire.append("s", Wire.blocks(feed, actor, i * 3L, 3)));
          positions.addAll(response.getPositionsList());
        }
        return positions;
      }));
    }

    List<Long> all = new ArrayList<>();
    for (Future<List<Long>> result : results) {
      List<Long> positions = result.get(60, TimeUnit.SECONDS);
      for (int i = 1; i < positions.size(); i++) {
        assertTrue(positions.get(i) > positions.get(i - 1), "each thread sees its positions increase");
      }
      for (int i = 0; i < positions.size(); i += 3) {
        assertEquals(positions.get(i) + 2, positions.get(i + 2), "one append gets consecutive positions");
      }
      all.addAll(positions);
    }
    all.sort(null);
    assertEquals(WatchTest.range(1, 600), all, "unique and dense");
    List<Long> stored = Calls.allBlocks(t.channel, "s").stream().map(b -> b.getPosition()).toList();
    assertEquals(WatchTest.range(1, 600), stored, "nothing lost");
  }

  @Test
  void aWatcherCatchingUpWhileAThousandBlocksAreAppendedGetsEachOnceInOrder() throws Exception {
    FeedId feed = TestBlocks.feedId();
    for (int i = 0; i < 20; i++) {
      t.blocking().append(Wire.append("s", Wire.blocks(feed, "history", i * 100L, 100)));
    }
    EventRecorder<WatchEvent> events = new EventRecorder<>();
    t.async().watch(WatchRequest.newBuilder().setSpaceId("s").build(), events);
    List<Future<?>> appenders = new ArrayList<>();
    for (int thread = 0; thread < 4; thread++) {
      String actor = "live" + thread;
      appenders.add(threads.submit(() -> {
        for (int i = 0; i < 250; i++) {
          t.blocking().append(Wire.append("s", Wire.block(feed, actor, i)));
        }
        return null;
      }));
    }

    List<Long> received = new ArrayList<>();
    int caughtUp = 0;
    while (received.size() < 3000) {
      WatchEvent event = events.next();
      if (event.hasCaughtUp()) {
        caughtUp++;
      } else if (event.hasBlocks()) {
        event.getBlocks().getBlocksList().forEach(b -> received.add(b.getPosition()));
      }
    }
    for (Future<?> appender : appenders) {
      appender.get(60, TimeUnit.SECONDS);
    }

    assertEquals(WatchTest.range(1, 3000), received, "every block exactly once, in position order");
    assertTrue(caughtUp <= 1, "caught_up is sent once");
    System.out.printf("catch-up under load: 2000 history + 1000 concurrent blocks received in order; caught_up %s%n",
        caughtUp == 1 ? "sent during the appends" : "not yet sent");
  }

  @Test
  void watchersOfTwoSpacesSeeTheBlocksOfConcurrentGroupsOnceAndInPositionOrder() throws Exception {
    int writers = 32;
    int callsEach = 20;
    ExecutorService many = Executors.newFixedThreadPool(writers);
    try {
      List<EventRecorder<WatchEvent>> watchers = new ArrayList<>();
      for (String space : List.of("a", "b")) {
        EventRecorder<WatchEvent> events = new EventRecorder<>();
        t.async().watch(WatchRequest.newBuilder().setSpaceId(space).build(), events);
        watchers.add(events);
      }
      List<Future<Integer>> appenders = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String space = w % 2 == 0 ? "a" : "b";
        String actor = "writer" + w;
        int size = 1 + w % 3;
        appenders.add(many.submit(() -> {
          FeedId feed = TestBlocks.feedId();
          for (int i = 0; i < callsEach; i++) {
            AppendResponse response = t.blocking().append(Wire.append(space, Wire.blocks(feed, actor, i * size, size)));
            for (int b = 1; b < size; b++) {
              assertEquals(response.getPositions(0) + b, response.getPositions(b), "a call's positions are consecutive");
            }
          }
          return callsEach * size;
        }));
      }
      long[] perSpace = new long[2];
      for (int w = 0; w < writers; w++) {
        perSpace[w % 2] += appenders.get(w).get(60, TimeUnit.SECONDS);
      }

      for (int s = 0; s < 2; s++) {
        List<Long> received = new ArrayList<>();
        while (received.size() < perSpace[s]) {
          WatchEvent event = watchers.get(s).next();
          if (event.hasBlocks()) {
            event.getBlocks().getBlocksList().forEach(b -> received.add(b.getPosition()));
          }
        }
        assertEquals(WatchTest.range(1, perSpace[s]), received, "every block of space " + s + " once, in position order");
      }
    } finally {
      many.shutdownNow();
    }
  }
}
