package dev.feedstore.server.internal.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.testing.Await;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A live query's subscriber gets a heartbeat only after a whole interval with nothing sent, and the
 * heartbeat carries the position the shared query stands at, every batch up to it sent. Ticks and
 * drains run when the test says, over a real SQLite file.
 */
class QuerySubscriptionHeartbeatTest extends LiveQueriesFixture {
  @Test
  void aHeartbeatFollowsAWholeIdleIntervalAndCarriesWhereTheSharedQueryStands() {
    task(1, "open");
    SlowSubscriberTest.RecordingSink sink = new SlowSubscriberTest.RecordingSink();
    queries.open(SlowSubscriberTest.OPEN, Optional.empty(), sink, "c1", Caller.open("p"));
    drains.runAll();
    assertEquals(List.of("ack", "snapshot", "ready"), sink.names());

    tick();
    assertEquals(List.of("ack", "snapshot", "ready"), sink.names(), "ready was sent in this interval");
    tick();
    assertEquals(List.of("ack", "snapshot", "ready", "heartbeat"), sink.names(), "a whole interval idle");
    assertEquals(1, sink.heartbeats.get(0).position());

    task(2, "closed"); // changes nothing in the result, and moves the shared query on
    task(3, "open");
    Await.until("the batch of the third task", () -> {
      drains.runAll();
      return sink.batches.size() == 1;
    });
    tick();
    assertEquals(1, sink.heartbeats.size(), "a batch was sent in this interval");
    tick();
    assertEquals(2, sink.heartbeats.size());
    assertEquals(3, sink.heartbeats.get(1).position(), "every batch up to it was sent");
    assertEquals(sink.batches.get(0).position(), sink.heartbeats.get(1).position());
  }

  private void tick() {
    queries.tick();
    drains.runAll();
  }
}
