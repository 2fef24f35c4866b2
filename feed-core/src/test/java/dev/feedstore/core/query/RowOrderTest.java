package dev.feedstore.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.feedstore.core.ActorId;
import dev.feedstore.core.BlockKey;
import dev.feedstore.core.Position;
import dev.feedstore.core.Sequence;
import dev.feedstore.core.json.JsonReader;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.testing.TestBlocks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The order of rows: numbers, strings, the rest; reversed descending but the rest stays last; ties by key. */
class RowOrderTest {
  private static final RowVersion VERSION = new RowVersion(
      new BlockKey(TestBlocks.feedId(), ActorId.of("a"), Sequence.FIRST), Position.of(1), OptionalLong.empty());

  private static Row row(Object id, String orderValue) {
    DocumentId key = id instanceof Long n ? DocumentId.of(n) : DocumentId.of((String) id);
    Optional<JsonValue> value = orderValue == null ? Optional.empty() : Optional.of(JsonReader.parse(orderValue));
    return new Row(key, VERSION, value, Optional.empty());
  }

  @Test
  void ascendingPutsNumbersThenStringsThenEverythingElse() {
    assertSorted(Order.Direction.ASC, List.of(
        row(5L, "-1e3"), row(4L, "-0.5"), row(1L, "0"), row("a", "0"), row(2L, "7.0"), row(3L, "7"), row("z", "7e0"),
        row(9L, "\"\""), row(8L, "\"B\""), row(7L, "\"a\""), row(6L, "\"\uFFFF\""), row(10L, "\"😀\""),
        row(11L, null), row(12L, "null"), row(13L, "true"), row(14L, "[1]"), row("b", "{}"), row("c", null)));
  }

  @Test
  void descendingReversesStringsAndNumbersButKeepsTheRestLastAndTiesByKeyAscending() {
    assertSorted(Order.Direction.DESC, List.of(
        row(10L, "\"😀\""), row(6L, "\"\uFFFF\""), row(7L, "\"a\""), row(8L, "\"B\""), row(9L, "\"\""),
        row(2L, "7.0"), row(3L, "7"), row("z", "7e0"), row(1L, "0"), row("a", "0"), row(4L, "-0.5"), row(5L, "-1e3"),
        row(11L, null), row(12L, "null"), row(13L, "true"), row(14L, "[1]"), row("b", "{}"), row("c", null)));
  }

  @Test
  void withoutAnOrderRowsGoByKeyIntegersFirst() {
    List<Row> expected = List.of(row(Long.MIN_VALUE, null), row(-1L, null), row(2L, null), row(10L, null),
        row("", null), row("10", null), row("2", null), row("\uFFFF", null), row("😀", null));
    List<Row> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new Random(1));
    shuffled.sort(RowOrder.of(Optional.empty()));
    assertEquals(expected, shuffled);
  }

  private static void assertSorted(Order.Direction direction, List<Row> expected) {
    RowOrder order = RowOrder.of(Optional.of(new Order(Field.named("/x"), direction)));
    Random random = new Random(5);
    for (int round = 0; round < 20; round++) {
      List<Row> shuffled = new ArrayList<>(expected);
      Collections.shuffle(shuffled, random);
      shuffled.sort(order);
      assertEquals(expected, shuffled);
    }
  }
}
