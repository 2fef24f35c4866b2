package dev.feedstore.server.testing;

import dev.feedstore.proto.v1.WatchEvent;
import dev.feedstore.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What tests read from the events a Watch stream delivered. Stateless. */
public final class WatchEvents {
  private WatchEvents() {}

  /**
   * The positions of the blocks {@code watch} delivers until it has delivered {@code last}, taking
   * its events; fails after 30 s.
   */
  public static List<Long> positionsUpTo(EventRecorder<WatchEvent> watch, long last) {
    List<Long> positions = new ArrayList<>();
    Await.until("the watch delivered position " + last, Duration.ofSeconds(30), () -> {
      while (watch.pending() > 0) {
        watch.next().getBlocks().getBlocksList().forEach(b -> positions.add(b.getPosition()));
      }
      return !positions.isEmpty() && positions.get(positions.size() - 1) >= last;
    });
    return positions;
  }
}
