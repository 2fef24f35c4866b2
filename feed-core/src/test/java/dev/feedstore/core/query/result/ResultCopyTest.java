package dev.feedstore.core.query.result;

import static dev.feedstore.core.testing.TestVersions.positioned;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.query.DocumentId;
import dev.feedstore.core.query.LiveQuery;
import dev.feedstore.core.query.Row;
import dev.feedstore.core.testing.TestBlocks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A subscriber's copy notices a batch that does not fit, and change batches keep their shape. */
class ResultCopyTest {
  private static final FeedId FEED = TestBlocks.feedId();
  private static final LiveQuery QUERY = LiveQuery.parse("space:w key:/id order /n desc");

  private static final Map<String, Row> ROWS = new HashMap<>();

  /** The row of document {@code id} at {@code n}: the same row on every call. */
  private static Row row(int id, int n) {
    return ROWS.computeIfAbsent(id + ":" + n, k -> QUERY.rowOf(DocumentId.of(id),
        positioned(FEED, 1 + id, 1, "{\"id\":" + id + ",\"n\":" + n + "}")).orElseThrow());
  }

  @Test
  void keepsRowsInTheQuerysOrder() {
    ResultCopy copy = new ResultCopy(QUERY);
    copy.load(List.of(row(1, 1), row(2, 5)));
    copy.apply(new ChangeBatch(List.of(row(3, 3)), List.of(new RowUpdate(row(1, 1), row(1, 9))), List.of(row(2, 5))));
    assertEquals(List.of(row(1, 9), row(3, 3)), copy.rows());
    assertEquals(Optional.of(row(3, 3)), copy.row(DocumentId.of(3)));
  }

  @Test
  void aBatchThatDoesNotFitIsRefusedAndChangesNothing() {
    ResultCopy copy = new ResultCopy(QUERY);
    copy.load(List.of(row(1, 1), row(2, 5)));
    List<Row> before = copy.rows();
    assertThrows(IllegalStateException.class, () -> copy.apply(
        new ChangeBatch(List.of(row(2, 5), row(3, 3)), List.of(), List.of())), "a held row entered again");
    assertThrows(IllegalStateException.class, () -> copy.apply(
        new ChangeBatch(List.of(row(3, 3)), List.of(), List.of(row(2, 6)))), "a row left that is not the one held");
    assertThrows(IllegalStateException.class, () -> copy.apply(
        new ChangeBatch(List.of(), List.of(new RowUpdate(row(4, 1), row(4, 2))), List.of())), "an update of no row");
    assertThrows(IllegalArgumentException.class, () -> copy.load(List.of(row(1, 1), row(1, 2))));
    assertEquals(before, copy.rows());
  }

  @Test
  void aBatchNamesEachDocumentOnceInKeyOrder() {
    assertThrows(IllegalArgumentException.class, () -> new ChangeBatch(List.of(row(2, 1), row(1, 1)), List.of(),
        List.of()));
    assertThrows(IllegalArgumentException.class, () -> new ChangeBatch(List.of(row(1, 1)), List.of(),
        List.of(row(1, 1))));
    assertThrows(IllegalArgumentException.class, () -> new RowUpdate(row(1, 1), row(1, 1)));
    assertThrows(IllegalArgumentException.class, () -> new RowUpdate(row(1, 1), row(2, 1)));
  }

  @Test
  void betweenTwoStatesIsTheirExactDifference() {
    ChangeBatch batch = ChangeBatch.between(List.of(row(1, 1), row(2, 2), row(3, 3)), List.of(row(4, 4), row(2, 2),
        row(3, 1)));
    assertEquals(List.of(row(4, 4)), batch.entered());
    assertEquals(List.of(new RowUpdate(row(3, 3), row(3, 1))), batch.updated());
    assertEquals(List.of(row(1, 1)), batch.left());
    assertEquals(ChangeBatch.EMPTY, ChangeBatch.between(List.of(row(1, 1)), List.of(row(1, 1))));
  }

  @Test
  void aBatchThenTheNextIsTheirNetChange() {
    List<Row> first = List.of(row(1, 1), row(2, 2), row(3, 3));
    List<Row> second = List.of(row(2, 5), row(3, 3), row(4, 4), row(5, 5));
    List<Row> third = List.of(row(1, 7), row(2, 5), row(3, 3), row(5, 6));
    ChangeBatch one = ChangeBatch.between(first, second);
    ChangeBatch two = ChangeBatch.between(second, third);

    ChangeBatch both = one.then(two);

    assertEquals(ChangeBatch.between(first, third), both);
    assertEquals(List.of(row(5, 6)), both.entered(), "entered, then updated: entered as it is now");
    assertEquals(List.of(new RowUpdate(row(1, 1), row(1, 7)), new RowUpdate(row(2, 2), row(2, 5))), both.updated(),
        "left and came back, and updated once: each from its row before to its row after");
    assertEquals(List.of(), both.left(), "4 entered and left: no change");
    ResultCopy copy = new ResultCopy(QUERY);
    copy.load(first);
    copy.apply(both);
    assertEquals(ChangeBatch.between(List.of(), third).entered(), sortedById(copy.rows()));
    assertEquals(one, one.then(ChangeBatch.EMPTY));
    assertEquals(two, ChangeBatch.EMPTY.then(two));
  }

  private static List<Row> sortedById(List<Row> rows) {
    return rows.stream().sorted(java.util.Comparator.comparing(Row::id)).toList();
  }
}
