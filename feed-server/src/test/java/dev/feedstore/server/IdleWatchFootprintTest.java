package dev.feedstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.testing.TestBlocks;
import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.proto.v1.WatchRequest;
import dev.feedstore.server.testing.EventRecorder;
import dev.feedstore.server.testing.TestServer;
import dev.feedstore.server.testing.Wire;
import dev.feedstore.testing.Await;
import io.grpc.Context;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an idle Watch stream costs: no thread, no buffer, a few objects (measured, printed). */
class IdleWatchFootprintTest {
  private static final int STREAMS = 1000;

  @TempDir Path dir;

  @Test
  void aThousandIdleWatchStreamsCostLittleHeapAndAllGetTheNextBlock() {
    try (TestServer t = TestServer.on(dir.resolve("feeds.db")).loopback().start()) {
      FeedId feed = TestBlocks.feedId();
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", 0)));
      List<EventRecorder<WatchEvent>> watchers = new ArrayList<>();
      List<Context.CancellableContext> contexts = new ArrayList<>();
      long before = usedHeapAfterGc();
      int threadsBefore = Thread.activeCount();
      for (int i = 0; i < STREAMS; i++) {
        EventRecorder<WatchEvent> events = new EventRecorder<>();
        Context.CancellableContext context = Context.current().withCancellation();
        context.run(() -> t.async().watch(WatchRequest.newBuilder().setSpaceId("s").setCursor(1).build(), events));
        watchers.add(events);
        contexts.add(context);
      }
      for (EventRecorder<WatchEvent> events : watchers) {
        assertTrue(events.next().hasCaughtUp());
      }
      long after = usedHeapAfterGc();
      long perStream = (after - before) / STREAMS;
      System.out.printf("idle watch streams over loopback: %d streams, used heap %.1f MiB -> %.1f MiB,"
              + " %.1f KiB per stream (server and client sides together); threads %d -> %d%n",
          STREAMS, before / 1048576.0, after / 1048576.0, perStream / 1024.0, threadsBefore, Thread.activeCount());
      assertTrue(perStream < 50 * 1024, perStream + " bytes per idle stream");

      long appended = System.nanoTime();
      t.blocking().append(Wire.append("s", Wire.block(feed, "a", 1)));
      for (EventRecorder<WatchEvent> events : watchers) {
        assertEquals(2, events.next().getBlocks().getBlocks(0).getPosition());
      }
      System.out.printf("one append fanned out to %d watchers in %d ms (from the Append call to the last"
          + " watcher's event, one sample, sync full)%n", STREAMS, (System.nanoTime() - appended) / 1_000_000);
      contexts.forEach(c -> c.cancel(null));
      Await.until("every stream is released", () -> t.server.openWatches() == 0);
    }
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
