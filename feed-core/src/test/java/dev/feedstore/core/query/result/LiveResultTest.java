package dev.feedstore.core.query.result;

import static dev.feedstore.core.testing.TestVersions.pending;
import static dev.feedstore.core.testing.TestVersions.positioned;
import static dev.feedstore.core.testing.TestVersions.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.LimitExceededException;
import dev.feedstore.core.Position;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.ParsedBlock;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a live result emits for each kind of change (docs/live-queries.md, "The engine"). */
class LiveResultTest {
  private static final FeedId FEED = TestBlocks.feedId();
  private static final LiveQuery OPEN_TASKS = LiveQuery.parse("space:w key:/id where /done = false tombstone"
      + " /deleted = true order /rank asc");
  private static final LiveQuery TOP_THREE = LiveQuery.parse("space:w key:/id order /rank asc limit 3");

  private long position = 1;

  private ParsedBlock task(Object id, int rank, boolean done) {
    return positioned(FEED, position++, 100, "{\"id\":" + id + ",\"rank\":" + rank + ",\"done\":" + done + "}");
  }

  private static List<DocumentChange> current(ParsedBlock... versions) {
    return java.util.Arrays.stream(versions).map(DocumentChange::current).toList();
  }

  private static List<DocumentId> ids(List<Row> rows) {
    return rows.stream().map(Row::id).toList();
  }

  private static List<DocumentId> ids(Object... keys) {
    return java.util.Arrays.stream(keys)
        .map(k -> k instanceof Integer n ? DocumentId.of(n) : DocumentId.of((String) k)).toList();
  }

  @Test
  void theFirstResetEntersEveryMatchingRowAndTheSnapshotIsInOrder() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    ChangeBatch first = result.reset(List.of(task(3, 1, false), task(1, 3, false), task(2, 2, true), task("\"x\"", 0, false)));
    assertEquals(ids(1, 3, "x"), ids(first.entered()), "entered rows by key");
    assertTrue(first.updated().isEmpty() && first.left().isEmpty());
    assertEquals(ids("x", 3, 1), ids(result.snapshot()), "the snapshot in the query's order");
    assertEquals(3, result.size());
  }

  @Test
  void versionsEnterUpdateAndLeave() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    result.reset(List.of(task(1, 1, false), task(2, 2, false)));
    Row one = result.snapshot().get(0);

    ChangeBatch entered = result.apply(current(task(3, 3, false)));
    assertEquals(ids(3), ids(entered.entered()));

    ParsedBlock renamed = task(1, 9, false);
    ChangeBatch updated = result.apply(current(renamed));
    assertEquals(1, updated.updated().size());
    assertEquals(one, updated.updated().get(0).previous(), "an update carries the row before");
    assertEquals(renamed.version(), updated.updated().get(0).current().version());

    ChangeBatch left = result.apply(current(task(2, 2, true)));
    assertEquals(ids(2), ids(left.left()));
    assertEquals(ids(3, 1), ids(result.snapshot()));
  }

  @Test
  void theSameVersionAgainIsNoChange() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    ParsedBlock one = task(1, 1, false);
    result.reset(List.of(one));
    assertEquals(ChangeBatch.EMPTY, result.apply(current(one)));
  }

  @Test
  void aTombstoneTakesTheDocumentOutAndALaterVersionBringsItBack() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    result.reset(List.of(task(1, 1, false)));
    ChangeBatch deleted = result.apply(current(
        positioned(FEED, position++, 100, "{\"id\":1,\"rank\":1,\"done\":false,\"deleted\":true}")));
    assertEquals(ids(1), ids(deleted.left()));
    assertEquals(0, result.matches(), "a tombstoned document is not a match");
    ChangeBatch back = result.apply(current(task(1, 1, false)));
    assertEquals(ids(1), ids(back.entered()));
  }

  @Test
  void aRowPushedOutOfTheWindowLeavesAndTheOneThatMovesInEnters() {
    LiveResult result = new LiveResult(TOP_THREE);
    result.reset(List.of(task(1, 10, false), task(2, 20, false), task(3, 30, false), task(4, 40, false)));
    assertEquals(ids(1, 2, 3), ids(result.snapshot()));

    ChangeBatch newFirst = result.apply(current(task(5, 5, false)));
    assertEquals(ids(5), ids(newFirst.entered()));
    assertEquals(ids(3), ids(newFirst.left()));
    assertTrue(newFirst.updated().isEmpty(), "rows 1 and 2 moved down a rank: not a change");

    ChangeBatch firstGone = result.apply(List.of(DocumentChange.removed(DocumentId.of(5))));
    assertEquals(ids(3), ids(firstGone.entered()), "the first row outside the window moves in");
    assertEquals(ids(5), ids(firstGone.left()));

    ChangeBatch outside = result.apply(current(task(4, 35, false)));
    assertEquals(ChangeBatch.EMPTY, outside, "a change outside the window is no change of the result");

    ChangeBatch swap = result.apply(current(task(1, 36, false)));
    assertEquals(ids(4), ids(swap.entered()));
    assertEquals(ids(1), ids(swap.left()), "the row that changed left the window, so it leaves");
    assertEquals(ids(2, 3, 4), ids(result.snapshot()));
  }

  @Test
  void aMoveInsideTheWindowIsAnUpdateOnlyWhenTheRowChanged() {
    LiveResult result = new LiveResult(TOP_THREE);
    result.reset(List.of(task(1, 10, false), task(2, 20, false), task(3, 30, false)));
    ChangeBatch moved = result.apply(current(task(3, 1, false)));
    assertEquals(ids(3), moved.updated().stream().map(u -> u.current().id()).toList());
    assertTrue(moved.entered().isEmpty() && moved.left().isEmpty());
    assertEquals(ids(3, 1, 2), ids(result.snapshot()));
  }

  @Test
  void pendingToPositionedIsAnUpdate() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    ParsedBlock mine = pending(FEED, "{\"id\":1,\"rank\":1,\"done\":false}");
    result.reset(List.of(mine));
    assertTrue(result.snapshot().get(0).version().pending());
    ParsedBlock acknowledged = ParsedBlock.of(mine.block().withPosition(Position.of(40)).withReceivedAt(7),
        mine.namespace(), 9);
    ChangeBatch batch = result.apply(current(acknowledged));
    assertEquals(1, batch.updated().size());
    assertTrue(batch.updated().get(0).previous().version().pending());
    assertEquals(Position.of(40), batch.updated().get(0).current().version().position());
  }

  @Test
  void aBatchIsTheNetChange() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    result.reset(List.of(task(1, 1, false), task(2, 2, false)));
    Row two = result.snapshot().get(1);
    ParsedBlock finalTwo = task(2, 7, false);
    ChangeBatch batch = result.apply(List.of(
        DocumentChange.current(task(3, 3, false)), DocumentChange.removed(DocumentId.of(3)),
        DocumentChange.current(task(2, 5, false)), DocumentChange.current(finalTwo),
        DocumentChange.removed(DocumentId.of(1)), DocumentChange.current(task(1, 1, false))));
    assertTrue(batch.entered().isEmpty() && batch.left().isEmpty(), "3 came and went, 1 went and came back");
    assertEquals(ids(1, 2), batch.updated().stream().map(u -> u.current().id()).toList());
    assertEquals(two, batch.updated().get(1).previous(), "from the row before the batch");
    assertEquals(finalTwo.version(), batch.updated().get(1).current().version(), "to the last version in it");
  }

  @Test
  void aResetEmitsTheExactDifference() {
    LiveResult result = new LiveResult(OPEN_TASKS);
    ParsedBlock kept = task(1, 1, false);
    result.reset(List.of(kept, task(2, 2, false), task(3, 3, false)));
    ChangeBatch diff = result.reset(List.of(kept, task(3, 30, false), task(4, 4, false), task(2, 2, true)));
    assertEquals(ids(4), ids(diff.entered()));
    assertEquals(ids(3), diff.updated().stream().map(u -> u.current().id()).toList());
    assertEquals(ids(2), ids(diff.left()));
    assertEquals(ids(1, 4, 3), ids(result.snapshot()));
  }

  @Test
  void aVersionOutsideTheScopeOrWithoutKeyIsRefusedAndChangesNothing() {
    LiveQuery tasks = LiveQuery.parse("space:w namespace:tasks key:/id");
    LiveResult result = new LiveResult(tasks);
    result.reset(List.of(version(FEED, "tasks", 1, 1, "{\"id\":1}")));
    List<Row> before = result.snapshot();
    assertThrows(IllegalArgumentException.class, () -> result.apply(List.of(
        DocumentChange.removed(DocumentId.of(1)), DocumentChange.current(version(FEED, "notes", 2, 1, "{\"id\":2}")))));
    assertThrows(IllegalArgumentException.class, () -> result.apply(List.of(
        DocumentChange.removed(DocumentId.of(1)), DocumentChange.current(version(FEED, "tasks", 2, 1, "{\"id\":2.5}")))));
    assertThrows(IllegalArgumentException.class, () -> result.reset(List.of(
        version(FEED, "tasks", 2, 1, "{\"id\":3}"), version(FEED, "tasks", 3, 1, "{\"id\":3}"))));
    assertEquals(before, result.snapshot());
  }

  @Test
  void goingPastTheMatchLimitIsRefusedNamingTheSettingAndChangesNothing() {
    LiveResult result = new LiveResult(TOP_THREE, 3);
    result.reset(List.of(task(1, 1, false), task(2, 2, false)));
    result.apply(current(task(3, 3, false)));
    List<Row> before = result.snapshot();
    LimitExceededException e = assertThrows(LimitExceededException.class,
        () -> result.apply(current(task(4, 4, false), task(5, 5, false))));
    assertEquals(LiveResult.MATCHES_SETTING, e.limitKey());
    assertEquals(5, e.actual());
    assertTrue(e.getMessage().contains("live-query-matches limit is 3"), e.getMessage());
    assertEquals(before, result.snapshot());
    assertEquals(ids(4), ids(result.apply(List.of(DocumentChange.removed(DocumentId.of(3)),
        DocumentChange.current(task(4, 0, false)))).entered()), "a batch that stays within the limit is applied");
    assertThrows(LimitExceededException.class, () -> result.reset(List.of(
        task(1, 1, false), task(2, 1, false), task(3, 1, false), task(4, 1, false))));
    assertThrows(IllegalArgumentException.class, () -> new LiveResult(TOP_THREE, 0));
  }

  @Test
  void appendedBlocksBecomeTheCurrentVersionsOfTheirDocuments() {
    LiveQuery tasks = LiveQuery.parse("space:w namespace:tasks key:/id order /rank");
    LiveResult result = new LiveResult(tasks);
    ChangeBatch batch = result.applyAppended(List.of(
        version(FEED, "tasks", 1, 1, "{\"id\":1,\"rank\":5}"),
        version(FEED, "notes", 2, 1, "{\"id\":2,\"rank\":1}"),
        version(FEED, "tasks", 3, 1, "{\"id\":true}"),
        version(FEED, "tasks", 4, 1, "not json"),
        version(FEED, "tasks", 5, 1, "{\"id\":1,\"rank\":2}")));
    assertEquals(ids(1), ids(batch.entered()), "the other blocks are outside the scope or have no key");
    assertEquals("{\"id\":1,\"rank\":2}", batch.entered().get(0).content().orElseThrow().toJson(),
        "the last block of a document wins");
    assertThrows(IllegalArgumentException.class, () -> result.applyAppended(List.of(
        version(FEED, "tasks", 4, 1, "{\"id\":1,\"rank\":0}"))), "position 4 comes before the current version at 5");
    ParsedBlock mine = version(FEED, "tasks", 0, -1, "{\"id\":1,\"rank\":3}");
    result.applyAppended(List.of(mine));
    assertThrows(IllegalArgumentException.class, () -> result.applyAppended(List.of(
        version(FEED, "tasks", 9, 1, "{\"id\":1,\"rank\":0}"))), "a positioned block comes before a pending one");
    assertEquals(mine.version(), result.snapshot().get(0).version(), "refused batches change nothing");
  }

  @Test
  void compactionTakesOutTheDocumentsWhoseEveryVersionIsBelowTheFloor() {
    LiveResult result = new LiveResult(TOP_THREE);
    result.reset(List.of(task(1, 1, false), task(2, 2, false), task(3, 3, false), task(4, 4, false),
        pending(FEED, "{\"id\":5,\"rank\":5}")));
    ChangeBatch batch = result.removeBelow(Position.of(3));
    assertEquals(ids(1, 2), ids(batch.left()));
    assertEquals(ids(4, 5), ids(batch.entered()), "rows move in, pending ones included");
    assertEquals(ids(3, 4, 5), ids(result.snapshot()));
  }
}
