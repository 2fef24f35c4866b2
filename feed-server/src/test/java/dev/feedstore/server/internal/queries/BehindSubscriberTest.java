package dev.feedstore.server.internal.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.feedstore.core.query.Row;
import dev.feedstore.core.query.result.ChangeBatch;
import dev.feedstore.server.internal.access.Caller;
import dev.feedstore.testing.Await;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Subscribers behind by several batches the shared query still keeps send them as one batch, their
 * net change, made once for every subscriber at the same point, as a Watch behind by several commits
 * sends them in one batch; a subscriber that follows sends each batch as it comes. Drains run when
 * the test says, over a real SQLite file.
 */
class BehindSubscriberTest extends LiveQueriesFixture {
  @Test
  void subscribersBehindBySeveralKeptBatchesSendTheirNetChangeAsOneSharedBatch() {
    task(1, "open");
    task(2, "open");
    SlowSubscriberTest.RecordingSink following = new SlowSubscriberTest.RecordingSink();
    SlowSubscriberTest.RecordingSink behind = new SlowSubscriberTest.RecordingSink();
    SlowSubscriberTest.RecordingSink alsoBehind = new SlowSubscriberTest.RecordingSink();
    for (SlowSubscriberTest.RecordingSink sink : List.of(following, behind, alsoBehind)) {
      queries.open(SlowSubscriberTest.OPEN, Optional.empty(), sink, "c", Caller.open("p"));
    }
    drains.runAll();
    behind.ready = false;
    alsoBehind.ready = false;

    task(3, "open"); // enters
    awaitBatches(following, 1);
    task(1, "closed"); // leaves
    awaitBatches(following, 2);
    task(3, "closed"); // entered and left: no change for a subscriber that had neither
    awaitBatches(following, 3);
    task(2, "open"); // a new version of a row: an update
    awaitBatches(following, 4);
    assertEquals(List.of(), behind.batches);

    behind.ready = true;
    alsoBehind.ready = true;
    behind.onReady.run();
    alsoBehind.onReady.run();
    drains.runAll();

    assertEquals(1, behind.batches.size(), "one batch for four kept ones");
    QueryBatch merged = behind.batches.get(0);
    ChangeBatch net = following.batches.get(0).changes().then(following.batches.get(1).changes())
        .then(following.batches.get(2).changes()).then(following.batches.get(3).changes());
    assertEquals(net, merged.changes());
    assertEquals(List.of(), ids(merged.changes().entered()));
    assertEquals(List.of("2"), merged.changes().updated().stream().map(u -> u.current().id().toString()).toList());
    assertEquals(List.of("1"), ids(merged.changes().left()));
    assertEquals(following.batches.get(3).stamp(), merged.stamp(), "it brings the subscriber where the last one does");
    assertSame(merged, alsoBehind.batches.get(0), "made once for both subscribers behind at the same point");

    task(4, "open");
    awaitBatches(following, 5);
    Await.until("the next batch of the subscribers that were behind", () -> {
      drains.runAll();
      return behind.batches.size() == 2 && alsoBehind.batches.size() == 2;
    });
    assertSame(following.batches.get(4), behind.batches.get(1), "then the shared batches again");
  }

  private static List<String> ids(List<Row> rows) {
    return rows.stream().map(row -> row.id().toString()).toList();
  }
}
