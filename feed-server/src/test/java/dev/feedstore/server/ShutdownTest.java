package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.Block;
import dev.feedstore.core.FeedId;
import dev.feedstore.core.Position;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShutdownTest {
  @TempDir Path dir;

  @Test
  void appendsInFlightAtShutdownFinishAndEveryAcknowledgedBlockIsStored() throws Exception {
    TestServer t = TestServer.on(dir.resolve("feeds.db")).start();
    FeedId feed = TestBlocks.feedId();
    ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Status.Code> refusals = new ConcurrentLinkedQueue<>();
    AtomicInteger appends = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<?>> appenders = new ArrayList<>();
    for (int thread = 0; thread < 4; thread++) {
      String actor = "a" + thread;
      appenders.add(threads.submit(() -> {
        for (int i = 0; ; i++) {
          try {
            acknowledged.addAll(t.blocking().append(Wire.append("s", Wire.blocks(feed, actor, i * 10L, 10)))
                .getPositionsList());
            appends.incrementAndGet();
          } catch (StatusRuntimeException e) {
            refusals.add(e.getStatus().getCode());
            return;
          }
        }
      }));
    }
    Await.until("appends are running", () -> appends.get() >= 20);

    t.server.close();

    for (Future<?> appender : appenders) {
      appender.get(30, TimeUnit.SECONDS);
    }
    threads.shutdown();
    assertTrue(Set.of(Status.Code.UNAVAILABLE).containsAll(refusals), "refused after shutdown: " + refusals);
    Set<Long> stored = new TreeSet<>();
    for (Block block : t.sqlite.read(tx -> tx.blocks().after(SpaceId.of("s"), Scope.WHOLE_SPACE, Position.NONE, 100_000))) {
      stored.add(block.position().value());
    }
    assertEquals(new TreeSet<>(acknowledged), stored, "what was acknowledged is stored, and nothing else");
    t.close();
  }
}
